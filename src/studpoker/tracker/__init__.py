"""A stud tracker: each player's counts in each hand (:mod:`.counts`), the statistics they make (:mod:`.stats`),
a hand database they are imported into (:mod:`.store`, :mod:`.importer`) and the reports read from it."""
