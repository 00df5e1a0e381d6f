"""Yes/no with a device instruction (cheating detection, the lie detector) on
the platform side: its sentences for researchers, what the builder allows, and
the compliance estimate an estimate run saves and its plan (run.py)."""
