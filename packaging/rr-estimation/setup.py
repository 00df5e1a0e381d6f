"""Every build starts from an empty build folder.

setuptools copies the packages into ``build/lib`` and puts whatever it finds
there into the wheel, so a module moved or deleted in ``estimation/`` since the
last build would ship as a stale copy. The configuration is in pyproject.toml.
"""

import shutil

from setuptools import setup
from setuptools.command.build_py import build_py


class FreshBuildPy(build_py):
    def run(self) -> None:
        shutil.rmtree(self.build_lib, ignore_errors=True)
        super().run()


setup(cmdclass={"build_py": FreshBuildPy})
