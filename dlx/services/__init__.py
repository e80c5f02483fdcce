"""The services: what runs around every engine, written once against the
engine interface (``dlx.engines.base``) -- searches in slices with
budgets and Ctrl-C (``search``), batches, counts on threads (``parallel``)
and in jobs (``split``, ``runner``, ``pool``, ``checkpoint``, ``jobs``),
progress, Knuth's estimate, memoized counting, the cheapest solutions
(``best``), and ``counting``, where ``ExactCover.count``'s arguments are
checked and routed."""
