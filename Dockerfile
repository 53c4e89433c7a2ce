# turnpost-server, built in a Rust image and run from a slim Debian image.
#   docker build -t turnpost-server .
#   docker run -p 8080:8080 -v turnpost:/var/lib/turnpost turnpost-server
FROM rust:1.95-bookworm AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends libpq-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p turnpost-server \
    && install -m 0755 target/release/turnpost-server /usr/local/bin/turnpost-server

FROM debian:bookworm-slim
# fonts-dejavu-core: the coordinates drawn on the board pictures in turn mails (without a font
# the pictures are still sent, only unlabelled).
RUN apt-get update \
    && apt-get install -y --no-install-recommends libpq5 ca-certificates fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --create-home --home-dir /var/lib/turnpost turnpost \
    # Its home holds the database and the secrets: the server's user's alone.
    && chmod 0700 /var/lib/turnpost
COPY --from=build /usr/local/bin/turnpost-server /usr/local/bin/turnpost-server
USER turnpost
WORKDIR /var/lib/turnpost
ENV TURNPOST_LISTEN=0.0.0.0:8080 \
    TURNPOST_DATA_DIR=/var/lib/turnpost
VOLUME ["/var/lib/turnpost"]
# 8080: HTTP; 2424: LMTP, when TURNPOST_LMTP_LISTEN=0.0.0.0:2424 is set (keep it off the host:
# only the MTA's container should reach it).
EXPOSE 8080 2424
STOPSIGNAL SIGTERM
# `health` asks GET /v1/health on TURNPOST_LISTEN (no curl in the slim image): 0 healthy, 1 not.
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
    CMD ["turnpost-server", "health"]
ENTRYPOINT ["turnpost-server"]
CMD ["serve"]
