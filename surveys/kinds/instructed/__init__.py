"""Yes/no with a device instruction (cheating detection, the lie detector) on
the platform side: its sentences for researchers and what the builder allows."""
