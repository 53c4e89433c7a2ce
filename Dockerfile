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
    && useradd --system --create-home --home-dir /var/lib/turnpost turnpost
COPY --from=build /usr/local/bin/turnpost-server /usr/local/bin/turnpost-server
USER turnpost
WORKDIR /var/lib/turnpost
ENV TURNPOST_LISTEN=0.0.0.0:8080 \
    TURNPOST_DATA_DIR=/var/lib/turnpost
VOLUME ["/var/lib/turnpost"]
EXPOSE 8080
STOPSIGNAL SIGTERM
ENTRYPOINT ["turnpost-server"]
CMD ["serve"]
