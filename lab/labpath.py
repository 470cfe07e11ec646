"""Imported first by every lab module: puts the product's scripts/ (its hpb package) on the path.
The lab may import the product; the product never imports the lab."""
import sys
from pathlib import Path

LAB = Path(__file__).resolve().parent
REPO = LAB.parent
SCRIPTS = REPO / "scripts"
if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))
