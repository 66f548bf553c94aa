"""python -m memql.interfaces.cli"""

from memql.interfaces.cli import main

main()
