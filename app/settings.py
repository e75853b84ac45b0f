"""Runtime settings, read once from environment variables (prefix-free, case-insensitive).

Example: ``DATABASE_URL=postgresql+asyncpg://talon@localhost/talon talon serve``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Everything an operator may tune; validated when the application starts."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    database_url: str = "sqlite+aiosqlite:///./data/talon.db"
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    allowed_origins: list[str] = Field(
        default_factory=lambda: ["http://127.0.0.1:8000", "http://localhost:8000"]
    )
    public_url: str = "http://localhost:8000"
    log_level: str = "info"
    # "json": one JSON object per line (app/logs.py); "text" for reading by eye; "auto": text
    # when standard error is a terminal, else JSON.
    log_format: Literal["auto", "text", "json"] = "auto"

    # Several workers sharing one PostgreSQL database: set REDIS_URL (redis://host:6379/0)
    # on every worker. Each live table then has one owner, the worker holding its lease
    # (renewed every third of ``lease_seconds``; another worker takes it over once it has run
    # out); other workers forward their connections' commands to the owner through Redis and
    # relay its frames back, and check every ``sync_interval`` seconds that the owner they
    # relay to still holds the lease (docs/architecture.md, "Many workers").
    redis_url: str | None = None
    sync_interval: float = Field(default=2.0, gt=0)
    lease_seconds: float = Field(default=10.0, ge=0.5, le=300)
    # A table nobody watches, with no command under way and no bot to move, is dropped from
    # memory after this many idle seconds; the next viewer loads it again from the store.
    table_idle_seconds: float = Field(default=300.0, gt=0)
    # A seated player whose last connection to a table closed is "away" for this many
    # seconds, then "gone": the other side may then claim the match (docs/protocol.md).
    presence_grace_seconds: float = Field(default=60.0, gt=0, le=86_400)

    # How long a rematch offer waits for the other players to accept (seconds); it lives in
    # the table owner's memory and does not outlive a restart or a change of owner.
    rematch_seconds: float = Field(default=60.0, gt=0, le=3600)
    # Challenges (app/challenges): how long one waits for an answer (seconds; decided by its
    # stored time), how many pending ones a player may have made at once, and how many a
    # player may make per minute (app/api/limits.py).
    challenge_seconds: float = Field(default=120.0, gt=0, le=86_400)
    challenges_pending: int = Field(default=5, ge=1)
    challenges_per_minute: int = Field(default=10, ge=1)

    # WebSocket protocol limits (see docs/protocol.md).
    ws_max_frame_bytes: int = Field(default=16_384, ge=256)
    ws_send_queue: int = Field(default=256, ge=8)
    ws_hello_timeout: float = Field(default=10.0, gt=0)
    ws_ping_interval: float = Field(default=20.0, gt=0)
    ws_ping_timeout: float = Field(default=20.0, gt=0)
    # An idle HTTP keep-alive connection is closed after this many seconds. Longer than what
    # clients and proxies keep one for (httpx 5 s, browsers and nginx about 60 s), so the
    # server never closes a connection just as a client reuses it: that race loses the
    # request with "server disconnected" (uvicorn's own default is 5 s, the same as httpx).
    keep_alive_seconds: int = Field(default=75, ge=1)
    ws_messages_per_second: float = Field(default=100.0, gt=0)
    # Open table sockets per client address (per worker); more are closed with 4029.
    ws_connections_per_address: int = Field(default=100, ge=1)
    # Proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (comma-separated
    # addresses or networks, "*" for any): a connection from one of them is taken to come from
    # the address the proxy names, and the rate limits count that address. None by default:
    # every client is the address it connects from (docker-compose.yml names its nginx).
    forwarded_allow_ips: str = ""
    # HTTP request bodies past this size answer 413 body_too_large (app/api/body_limit.py).
    max_body_bytes: int = Field(default=65_536, ge=1_024)
    # An HTTP request answered after more than this many seconds is logged as a warning
    # (app/api/slow_requests.py); 0 turns the warning off.
    slow_request_seconds: float = Field(default=1.0, ge=0)

    # Creations per client address per minute (app/api/limits.py); 429 with Retry-After past them.
    players_per_minute: int = Field(default=30, ge=1)
    tables_per_minute: int = Field(default=30, ge=1)
    # Password attempts per client address per minute: sign-ins (passkey ones too), new
    # accounts and deletions, which all check or hash a password.
    sign_ins_per_minute: int = Field(default=10, ge=1)
    # Password sign-ins per account (by handle) in any 15 minutes, from every address and
    # worker together; a successful one starts the count again (passkeys are never counted).
    sign_ins_per_account: int = Field(default=10, ge=1)

    # How long a bot's turn takes, so a human can follow its moves: BOT_PAUSE plus up to
    # BOT_PAUSE_JITTER seconds, drawn before the bot looks at its cards, whatever it then
    # thinks (app/tables/bots.py; 0 in tests). Keep BOT_PAUSE above twice BOT_BUDGET.
    bot_pause: float = Field(default=0.6, ge=0)
    bot_pause_jitter: float = Field(default=0.8, ge=0)
    # A bot's turn that comes straight after another bot's move (the rest of a round of
    # computer turns at three and four seats) takes this long instead, and no jitter: the
    # round starts with the full pause, the rest follows briskly. Never shorter than twice
    # the level's budget, never longer than the full pause.
    bot_follow_pause: float = Field(default=0.4, ge=0)
    # Thinking time per bot move (seconds), and the worker processes bots think in
    # (0: threads of the server process, for tests).
    bot_budget: float = Field(default=0.15, gt=0, le=5)
    # The expert level's thinking time per move, and its turns' pause instead of BOT_PAUSE
    # (keep BOT_EXPERT_PAUSE above twice BOT_EXPERT_BUDGET: the pause hides the think time).
    bot_expert_budget: float = Field(default=1.0, gt=0, le=10)
    bot_expert_pause: float = Field(default=2.2, ge=0)
    bot_workers: int = Field(default=1, ge=0, le=64)

    # Turn clocks (app/tables/clocks.py): a ``move`` clock's seconds per move and time bank
    # per deal, and a ``correspondence`` clock's hours per move.
    clock_move_seconds: float = Field(default=30.0, gt=0)
    clock_bank_seconds: float = Field(default=60.0, ge=0)
    clock_correspondence_hours: float = Field(default=24.0, gt=0)

    # Analysis of finished matches (app/history/analysis.py): how many a player may ask for
    # an hour, how many may wait in a worker's queue, and the worlds the search samples per
    # decision. It runs in one more bot worker process, at a lower CPU priority (a thread with
    # BOT_WORKERS=0).
    analyses_per_hour: int = Field(default=10, ge=0)
    analysis_queue: int = Field(default=100, ge=1)
    analysis_worlds: int = Field(default=64, ge=1, le=1000)

    # Pools (quick pairing, docs/pools.md): a wave every POOL_WAVE_SECONDS, give or take
    # POOL_WAVE_JITTER_SECONDS; the rating difference a waiting player accepts, which grows
    # by POOL_RANGE_GROWTH per second waited from POOL_RANGE_BASE; the computer offer after
    # POOL_BOT_AFTER_SECONDS of waiting.
    pool_wave_seconds: float = Field(default=3.0, gt=0, le=60)
    pool_wave_jitter_seconds: float = Field(default=0.5, ge=0, le=30)
    pool_range_base: float = Field(default=100.0, ge=0)
    pool_range_growth: float = Field(default=50.0, ge=0)
    pool_bot_after_seconds: float = Field(default=20.0, ge=0)
    # Tournaments (docs/tournaments.md): how often the owner of an event steps it (records
    # finished games, seats pending ones, pairs, starts and ends it).
    tournament_tick_seconds: float = Field(default=1.0, gt=0, le=60)
    # A player is online while a table socket of its is open or for this many seconds after
    # its last authenticated request (GET /api/online; a pool takes an offline player out).
    online_window_seconds: float = Field(default=60.0, gt=0)

    # /metrics (Prometheus) and /openapi.json with the /docs page are off on the app port
    # unless turned on (app/api/docs.py says why the docs page stays off in production).
    expose_metrics: bool = False
    expose_api_docs: bool = False

    # Table chat (app/chat/service.py): the longest line in characters, lines per player per
    # minute (counted across workers in Redis when REDIS_URL is set), and how many recent
    # lines a joining reader gets.
    chat_max_length: int = Field(default=300, ge=1, le=2000)
    chat_messages_per_minute: int = Field(default=12, ge=1)
    chat_history: int = Field(default=50, ge=0, le=500)

    # How many matches the history endpoint returns at most per page.
    history_page_max: int = Field(default=100, ge=1)
    # Bytes of finished matches' replays (logs and encoded steps) kept in memory per worker.
    replay_cache_bytes: int = Field(default=48 * 2**20, ge=0)

    # Rated matches a player needs before the leaderboard lists it (docs/ratings.md).
    leaderboard_min_matches: int = Field(default=20, ge=0)

    # Passkeys (WebAuthn; docs/protocol.md, "Passkeys"). The relying-party id is PUBLIC_URL's
    # host name and the one origin accepted is PUBLIC_URL's scheme, host and port, unless
    # these are set.
    # Browsers offer passkeys only in a secure context: HTTPS on a domain name, or
    # http://localhost; never on a bare IP address.
    passkey_rp_id: str | None = None
    passkey_origins: list[str] | None = None
    passkey_rp_name: str = "Talon"
    # How long a passkey challenge may be answered (seconds); each is answered at most once.
    passkey_challenge_seconds: float = Field(default=300.0, gt=0, le=3600)

    @property
    def relying_party_id(self) -> str:
        """The WebAuthn relying-party id: ``PASSKEY_RP_ID``, else PUBLIC_URL's host name."""
        return self.passkey_rp_id or (urlsplit(self.public_url).hostname or "localhost")

    @property
    def relying_party_origins(self) -> list[str]:
        """The origins a passkey ceremony may come from: ``PASSKEY_ORIGINS``, else
        PUBLIC_URL's origin."""
        if self.passkey_origins:
            return [o.rstrip("/") for o in self.passkey_origins]
        parts = urlsplit(self.public_url)
        return [f"{parts.scheme}://{parts.netloc}"]


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, read from the environment on first use."""
    return Settings()
