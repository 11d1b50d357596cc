# Makes the repository root importable from tests/.
