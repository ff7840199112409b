# The card room's image for the room on several processes (docker-compose.yml): `stud serve` with the cluster
# extra (PostgreSQL driver, Redis client). The engine is compiled with mypyc at install (gcc, for the build only).
FROM python:3.11-slim
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md LICENSE ./
COPY src ./src
RUN pip install --no-cache-dir '.[cluster]' && rm -rf /src
WORKDIR /
USER nobody
EXPOSE 8000
ENTRYPOINT ["stud", "serve"]
