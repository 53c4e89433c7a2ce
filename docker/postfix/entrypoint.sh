#!/bin/sh
# Applies examples/postfix/main.cf-lmtp for REPLY_DOMAIN and TURNPOST_LMTP, then runs Postfix in
# the foreground (its log on stdout, for `docker compose logs`).
set -eu
: "${REPLY_DOMAIN:?set REPLY_DOMAIN, the domain of the reply addresses}"
: "${TURNPOST_LMTP:?set TURNPOST_LMTP, host:port of turnpost-server lmtp_listen}"
sed -e "s/play\.example\.org/${REPLY_DOMAIN}/g" -e "s/127\.0\.0\.1:2424/${TURNPOST_LMTP}/g" \
    /etc/postfix/turnpost-main.cf-lmtp | grep -v -e '^#' -e '^$' | while IFS= read -r line; do
    postconf -e "$line"
done
postconf -e "myhostname = ${MAIL_HOSTNAME:-mx.${REPLY_DOMAIN}}" \
    "mydestination =" \
    "inet_interfaces = all" \
    "inet_protocols = ipv4" \
    "maillog_file = /dev/stdout"
exec postfix start-fg
