# One image for every service of docker-compose.yml (web, worker, beat).

# The offline play's files (bin/build-offline): the pyodide npm package's core, fetched with npm here, and the
# engine as engine.zip; copied into the image's static files below.
FROM node:20-slim AS offline
RUN apt-get update && apt-get install -y --no-install-recommends python3 && rm -rf /var/lib/apt/lists/*
WORKDIR /build
COPY bin/build-offline ./bin/
COPY engine ./engine
RUN bin/build-offline

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
RUN apt-get update && apt-get install -y --no-install-recommends gettext && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml setup.py README.md ./
COPY engine ./engine
COPY games ./games
COPY callbreak_site ./callbreak_site
COPY frontend ./frontend
COPY manage.py ./
COPY bin ./bin
COPY --from=offline /build/frontend/static/vendor ./frontend/static/vendor
# Editable, so settings' BASE_DIR (templates, static, locale under frontend/) stays /app.  A compiler is there
# only while the bots' C kernel (engine/bots/_kernel.c) is built.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && pip install -e . \
    && apt-get purge -y --auto-remove gcc libc6-dev && rm -rf /var/lib/apt/lists/*

# collectstatic needs settings that import; DEBUG stays off in the image, so give a build-time key.
RUN SECRET_KEY=build-only python manage.py collectstatic --noinput

EXPOSE 8000
ENV HOST=0.0.0.0 PORT=8000
CMD ["bin/serve"]
