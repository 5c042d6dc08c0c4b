# stub of helion.autotuner.base_search (tests/helion-stub/README.md)
class BaseSearch:
    def __init__(self, provider):
        self.provider = provider

    def autotune(self, *, skip_cache=False):
        return self._autotune()


class PopulationBasedSearch(BaseSearch):
    def rebenchmark(self, members, *, desc="Rebenchmarking"):
        return [m * 2 for m in members]


class PatternSearch(PopulationBasedSearch):
    def _autotune(self):
        return "tuned"
