"""Every build starts from an empty build folder, and leaves nothing outside
this folder.

setuptools copies the packages into ``build/lib`` and puts whatever it finds
there into the wheel, so a module moved or deleted in ``estimation/`` since the
last build would ship as a stale copy. Its metadata folder would otherwise be
written beside the sources, at the top of the checkout. The configuration is
in pyproject.toml.
"""

import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py


class FreshBuildPy(build_py):
    def run(self) -> None:
        shutil.rmtree(self.build_lib, ignore_errors=True)
        super().run()


os.makedirs("build", exist_ok=True)
setup(cmdclass={"build_py": FreshBuildPy}, options={"egg_info": {"egg_base": "build"}})
