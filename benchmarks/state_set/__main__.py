import sys

from benchmarks.state_set import main

sys.exit(main())
