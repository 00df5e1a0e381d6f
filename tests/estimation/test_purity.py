"""The statistical core stands alone: importing it pulls in no web framework."""

import subprocess
import sys


def test_importing_the_core_does_not_import_django():
    code = (
        "import sys, estimation, estimation.__main__\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'django', 'rest_framework', 'celery', 'redis', 'psycopg'})\n"
        "print(','.join(loaded))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""
