# Talon server image: slim Python 3.11, runtime dependencies only, runs as a non-root user.
#   docker build -t talon .
#   docker run -e DATABASE_URL=... -e REDIS_URL=... -p 8000:8000 talon
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HOST=0.0.0.0 \
    PORT=8000

RUN groupadd --system talon && useradd --system --gid talon --home-dir /srv/talon talon
WORKDIR /srv/talon

# The project's own dependencies only (no dev extras); the sources stay in /srv/talon, where
# the migrations are found next to the package.
COPY pyproject.toml README.md alembic.ini ./
COPY migrations ./migrations
COPY app ./app
RUN pip install --editable . && chown -R talon:talon /srv/talon

USER talon
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status != 200)"]
CMD ["talon", "serve", "--no-migrate"]
