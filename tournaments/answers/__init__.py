"""An event's stored answer (the engine run on its stored results, kept per results version): ``store``
keeps it, ``job`` refreshes it after every write that can change it, ``read`` serves it (the one read that
may fill its store), ``memos`` keeps what pages make of it in each worker's memory and the shared cache, and
``warnings`` keys what it says went stale. Below the services (which bump it) and the selectors (which read
it); it imports neither.
"""
