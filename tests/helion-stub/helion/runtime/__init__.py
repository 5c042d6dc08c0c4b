# stub (tests/helion-stub/README.md)
