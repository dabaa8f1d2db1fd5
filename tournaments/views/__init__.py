"""The tournaments app's web pages, one module per concern: ``calculator`` (the event calculator, nothing
stored), ``events`` (the list, a new event, the event page), ``entries``, ``rounds`` (a round, a match,
the round sheet) and ``live`` (pairings, standings, bracket, my tables); ``common`` holds what they share.
``tournaments.urls`` names every page; views parse, call one service or selector, and render."""
