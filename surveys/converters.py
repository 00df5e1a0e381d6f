"""Path converters the site's URLs share, registered once when imported."""

from django.urls import register_converter


class LanguageCode:
    """A language code in a path (``es``, ``pt-br``): never a word such as
    ``transparency``, which has a path of its own."""

    regex = "[a-z]{2,3}(?:-[a-z0-9]{2,8})?"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(LanguageCode, "lang")
