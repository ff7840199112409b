"""The terminal game, ``stud play``: a stud table on one screen, you in seat 1 against bots.

* :mod:`studpoker.tui.render`: pure functions from a :class:`~studpoker.engine.View` to the screen's text.
* :mod:`studpoker.tui.game`: the session without the screen (:class:`~studpoker.tui.game.Game`).
* :mod:`studpoker.tui.app`: the Textual application (needs the ``tui`` extra: Textual).

Nothing is imported here, so importing this package does not need Textual.
"""
