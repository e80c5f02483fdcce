"""Services: what runs a search on any engine (budgets, Ctrl-C, jobs,
estimates, the cheapest solutions), talking only to the engine
interface of ``dlx.engines.base``."""
