# Talon server image: Python 3.11, the locked runtime dependencies only, runs as a non-root user.
#   docker build -t talon .
#   docker run -e DATABASE_URL=... -e REDIS_URL=... -p 8000:8000 talon
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PYTHONPATH=/srv/talon \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HOST=0.0.0.0 \
    PORT=8000

RUN groupadd --system talon && useradd --system --gid talon --home-dir /srv/talon talon
WORKDIR /srv/talon

# Exactly the versions and files in requirements.lock (scripts/lock makes it from
# pyproject.toml): no resolving at build time, no dev tools.
COPY requirements.lock ./
RUN pip install --no-deps --require-hashes -r requirements.lock && pip check

# The sources are not installed as a package: they stay in /srv/talon (on PYTHONPATH), where
# the migrations are found next to the package, owned by root and read-only for the server.
# `talon` runs the same command line as the console script of a pip install.
COPY alembic.ini ./
COPY migrations ./migrations
COPY app ./app
RUN printf '#!/bin/sh\nexec python -m app.cli "$@"\n' > /usr/local/bin/talon \
    && chmod 755 /usr/local/bin/talon \
    && mkdir data && chown talon:talon data

USER talon
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status != 200)"]
CMD ["talon", "serve", "--no-migrate"]
