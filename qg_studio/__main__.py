import sys

from qg_studio.cli import main

sys.exit(main())
