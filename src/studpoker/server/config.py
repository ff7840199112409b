"""The card room's settings: where the database is, how much play money a new account gets, the clock.

One frozen :class:`Settings` is given to :func:`studpoker.server.app.create_app`; tests make their own
(a temporary SQLite file, a tiny clock, no pause between hands), ``stud serve`` builds one from its options.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .forwarded import TrustedProxies
from .limits import MAX_CHIPS, MAX_SHOWDOWN_SECONDS

__all__ = ["DEFAULT_DB_URL", "Settings"]

#: The database ``stud serve`` uses unless told otherwise: a SQLite file in the working directory.
DEFAULT_DB_URL = "sqlite:///./studpoker.db"


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the server can be told. Times are seconds.

    * ``db_url``: an SQLAlchemy URL (``sqlite:///path.db``, ``postgresql+psycopg://user:pw@host/db``).
    * ``starting_balance``: play chips granted to every new account (from the house account).
    * ``action_seconds`` / ``time_bank`` / ``bank_refill``: the action clock of each decision, the seat's time bank
      (used when the clock runs out) and what the bank gains back each hand, up to ``time_bank``.
    * ``bot_delay``: how long a server bot "thinks" before acting; ``between_hands``: the pause after a hand.
    * ``showdown_seconds``: the pause after a hand that ended with a showdown, 0 to 30 (the next deal waits the
      longer of it and ``between_hands``): the default of a new table, which may choose its own.
    * ``training_tables``: whether a new table may be a training table (practice chips, every card public after
      the hand, equities in the replayer; docs/server.md); an operator who wants none says ``False``.
    * ``timeouts_to_sit_out``: hands in a row the server had to act for a player before he is sat out.
    * ``default_table``: create "Stud 10/20" with ``default_bots`` bots when the database has no table.
    * ``secure_cookies``: mark the session cookie ``Secure`` (behind HTTPS).
    * ``trusted_proxies``: addresses and networks (``"127.0.0.1"``, ``"10.0.0.0/8"``) of the reverse proxies whose
      ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed (:mod:`studpoker.server.forwarded`); nobody's by
      default, so that no client can pick the address its limits are counted under.
    * ``allowed_origins``: origins (``"https://cards.example.org"``) whose pages may open a table WebSocket with
      the session cookie besides the server's own (the ``Host`` it was reached at); see docs/server.md.
    * ``static_dir``: the browser client's files (the package's ``static/`` folder unless given).
    * ``seed``: shuffle every table from this seed (tests); ``None`` uses the OS's CSPRNG.
    * ``password_time_cost`` / ``password_memory_kib``: argon2id parameters (argon2-cffi's defaults unless
      lowered, e.g. by the load bench creating hundreds of accounts).
    * ``min_password_score``: the zxcvbn strength (0 to 4) a new password needs (3: "safely unguessable").
    * ``session_idle_seconds`` / ``session_max_seconds``: a session ends after this long without use (an open
      table socket counts as use), and this long after login whatever happens.
    * ``login_failures_per_account`` / ``login_failures_per_address`` in ``login_window_seconds``: wrong passwords
      allowed before logins for that username or from that address answer 429 until the window has passed.
    * ``signups_per_address`` in ``signup_window_seconds``: new accounts from one address;
      ``signup_failures_per_address`` in ``signup_failure_window_seconds``: refused sign-ups (a taken name, a bad
      name or password) from one address before its sign-ups answer 429 until the window has passed.
    * ``max_tables_per_account`` / ``max_tables``: open tables one account may have opened, and in all (admins
      are not limited per account); ``tables_per_account_per_hour``: tables one account may open in an hour
      (so opening and closing cannot churn out rows without end).
    * ``hud_reads_per_minute``: reads of a table's HUD (``GET /api/tables/{id}/hud``) one account may make in a
      minute (a page reads it once a hand; past the limit 429).
    * ``redis_url``: the distributed room's bus (``redis://host:6379/0``); ``None``, the embedded room of one
      process. ``lease_seconds``: how long a table worker's lease on a table lasts without renewal (another worker
      takes the table this long, and at most a fifth more, after its worker died). ``db_threads``: threads doing
      database work on PostgreSQL (SQLite has one). ``redis_allow_unauthenticated``: use a Redis that lets in
      clients without a password (refused unless ``True``: whoever reaches it could act for any player).
      ``bus_linger_seconds``: while a process publishes often, the least time between two of its writes to Redis
      (what comes meanwhile goes out in the same write): fewer, larger writes for every process the frames pass
      through, for at most this much latency; a process that has not written for this long writes at once.
    * ``seat_hold_seconds``: how long a free seat is held for the first name on a full table's waiting list.
    * ``tournament_time_scale``: how much faster than real time tournaments' clocks run (1 in play; a test or a
      demonstration plays a 10-minute level in a second at 600).
    * ``max_body_bytes``, ``max_message_bytes``, ``max_messages_per_second``: request and WebSocket limits;
      ``max_sockets_per_address`` / ``max_sockets``: open table sockets from one address, and in all.
    * ``request_seconds``: the time a request's head has to arrive (from the connection's start, or the last answer
      on it) and then its body; ``max_connections_per_address``: connections (HTTP and WebSocket) one address may
      hold, connections from ``trusted_proxies`` uncounted (:mod:`studpoker.server.edge`; ``stud serve`` applies
      both, another ASGI server only the body's time).
    """

    db_url: str = DEFAULT_DB_URL
    starting_balance: int = 10_000
    action_seconds: float = 15.0
    time_bank: float = 30.0
    bank_refill: float = 2.0
    bot_delay: float = 0.6
    between_hands: float = 2.0
    showdown_seconds: float = 5.0
    training_tables: bool = True
    timeouts_to_sit_out: int = 2
    default_table: bool = True
    default_bots: int = 5
    secure_cookies: bool = False
    allowed_origins: tuple[str, ...] = ()
    trusted_proxies: tuple[str, ...] = ()
    static_dir: Path | None = None
    seed: int | None = None
    max_message_bytes: int = 4096
    max_messages_per_second: int = 20
    max_body_bytes: int = 16 * 1024
    password_time_cost: int = 3
    password_memory_kib: int = 65536
    bot_tags: tuple[str, ...] = field(default=("tight-aggressive", "calling-station", "random"))
    min_password_score: int = 3
    session_idle_seconds: float = 7 * 24 * 3600.0
    session_max_seconds: float = 30 * 24 * 3600.0
    session_sweep_seconds: float = 60.0
    login_failures_per_account: int = 5
    login_failures_per_address: int = 20
    login_window_seconds: float = 15 * 60.0
    signups_per_address: int = 5
    signup_window_seconds: float = 3600.0
    signup_failures_per_address: int = 20
    signup_failure_window_seconds: float = 15 * 60.0
    max_tables_per_account: int = 3
    max_tables: int = 1000
    tables_per_account_per_hour: int = 20
    hud_reads_per_minute: int = 60
    max_sockets_per_address: int = 30
    max_sockets: int = 20_000
    request_seconds: float = 10.0
    max_connections_per_address: int = 64
    redis_url: str | None = None
    redis_allow_unauthenticated: bool = False
    lease_seconds: float = 5.0
    db_threads: int = 4
    bus_linger_seconds: float = 0.005
    seat_hold_seconds: float = 30.0
    tournament_time_scale: float = 1.0

    def __post_init__(self) -> None:
        if not 0 <= self.starting_balance <= MAX_CHIPS:
            raise ValueError(f"starting_balance must be 0 to {MAX_CHIPS:,}, got {self.starting_balance}")
        if not 0 <= self.min_password_score <= 4:
            raise ValueError(f"min_password_score must be 0 to 4, got {self.min_password_score}")
        for name in (
            "login_failures_per_account",
            "login_failures_per_address",
            "signups_per_address",
            "signup_failures_per_address",
            "max_tables_per_account",
            "max_tables",
            "tables_per_account_per_hour",
            "hud_reads_per_minute",
            "max_sockets_per_address",
            "max_sockets",
            "max_connections_per_address",
        ):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        for name in (
            "session_idle_seconds",
            "session_max_seconds",
            "login_window_seconds",
            "signup_window_seconds",
            "signup_failure_window_seconds",
        ):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be more than 0, got {getattr(self, name)}")
        if not 1.0 <= self.tournament_time_scale <= 100_000.0:  # not NaN either
            raise ValueError(f"tournament_time_scale must be 1 to 100,000, got {self.tournament_time_scale}")
        if not 1.0 <= self.seat_hold_seconds <= 600.0:
            raise ValueError(f"seat_hold_seconds must be 1 to 600, got {self.seat_hold_seconds}")
        if not self.action_seconds > 0:  # not NaN either
            raise ValueError(f"action_seconds must be more than 0 seconds, got {self.action_seconds}")
        for name in ("time_bank", "bank_refill", "bot_delay", "between_hands"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be 0 or more, got {getattr(self, name)}")
        if not 0 <= self.showdown_seconds <= MAX_SHOWDOWN_SECONDS:
            raise ValueError(f"showdown_seconds must be 0 to {MAX_SHOWDOWN_SECONDS:g}, got {self.showdown_seconds}")
        if not 0 < self.request_seconds <= 3600:  # not NaN either
            raise ValueError(f"request_seconds must be more than 0 and at most 3600, got {self.request_seconds}")
        if not 1.0 <= self.lease_seconds <= 600.0:
            raise ValueError(f"lease_seconds must be 1 to 600, got {self.lease_seconds}")
        if not 0 <= self.bus_linger_seconds <= 0.1:  # not NaN either
            raise ValueError(f"bus_linger_seconds must be 0 to 0.1, got {self.bus_linger_seconds}")
        if not 1 <= self.db_threads <= 64:
            raise ValueError(f"db_threads must be 1 to 64, got {self.db_threads}")
        if isinstance(self.trusted_proxies, str):
            raise ValueError(f"trusted_proxies is a tuple of addresses, got the string {self.trusted_proxies!r}")
        TrustedProxies(self.trusted_proxies)  # raises ValueError naming an entry that is no address or network
