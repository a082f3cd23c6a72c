import sys
from pathlib import Path

# The package is used from the source tree (no install needed): clients/python on sys.path.
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
