//! The tables as diesel sees them, kept by hand to match `migrations/postgres` and
//! `migrations/sqlite` (`schema_matches_migrations` in `server/tests/migrations.rs` checks both).
//! Only SQL types both backends support: BigInt, Integer, Text, Timestamp (UTC), Nullable.

diesel::table! {
    accounts (id) {
        id -> BigInt,
        name -> Text,
        name_key -> Text,
        email -> Text,
        email_key -> Text,
        verified_at -> Nullable<Timestamp>,
        created_at -> Timestamp,
        bot_level -> Nullable<Integer>,
        link_generation -> Integer,
        engine -> Bool,
    }
}

diesel::table! {
    bot_claims (game_id, ply) {
        game_id -> BigInt,
        ply -> Integer,
        claimed_at -> Timestamp,
    }
}

diesel::table! {
    api_tokens (id) {
        id -> BigInt,
        account_id -> BigInt,
        token_hash -> Text,
        label -> Text,
        created_at -> Timestamp,
        last_used_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    sign_in_codes (id) {
        id -> BigInt,
        account_id -> BigInt,
        code_hash -> Text,
        attempts -> Integer,
        expires_at -> Timestamp,
        used_at -> Nullable<Timestamp>,
        created_at -> Timestamp,
        link_hash -> Nullable<Text>,
    }
}

diesel::table! {
    browser_sessions (id) {
        id -> BigInt,
        account_id -> BigInt,
        secret_hash -> Text,
        label -> Text,
        created_at -> Timestamp,
        last_used_at -> Timestamp,
    }
}

diesel::table! {
    mail_outbox (id) {
        id -> BigInt,
        message_id -> Text,
        recipient -> Text,
        subject -> Text,
        body_text -> Text,
        in_reply_to -> Nullable<Text>,
        status -> Text,
        attempts -> Integer,
        next_attempt_at -> Timestamp,
        lease_until -> Nullable<Timestamp>,
        last_error -> Nullable<Text>,
        created_at -> Timestamp,
        sent_at -> Nullable<Timestamp>,
        parts -> Nullable<Text>,
        claimed_by -> Nullable<Text>,
        lane -> Integer,
    }
}

diesel::table! {
    games (id) {
        id -> BigInt,
        kind -> Text,
        options -> Text,
        clock -> Nullable<Text>,
        status -> Text,
        result -> Nullable<Text>,
        result_reason -> Nullable<Text>,
        ply -> Integer,
        to_move -> Nullable<Integer>,
        position -> Text,
        draw_offered_by -> Nullable<Integer>,
        created_by -> BigInt,
        created_at -> Timestamp,
        started_at -> Nullable<Timestamp>,
        finished_at -> Nullable<Timestamp>,
        last_activity_at -> Timestamp,
        timeout_mode -> Text,
        turn_started_at -> Nullable<Timestamp>,
        deadline_at -> Nullable<Timestamp>,
        clock_notices -> Integer,
        draw_accepted_by -> Nullable<Text>,
        on_leave -> Text,
        rated -> Bool,
    }
}

diesel::table! {
    game_seats (game_id, seat) {
        game_id -> BigInt,
        seat -> Integer,
        account_id -> BigInt,
        accepted_at -> Nullable<Timestamp>,
        bank_seconds -> Nullable<BigInt>,
        played_by -> Nullable<BigInt>,
        left_ply -> Nullable<Integer>,
    }
}

diesel::table! {
    moves (game_id, ply) {
        game_id -> BigInt,
        ply -> Integer,
        seat -> Integer,
        account_id -> Nullable<BigInt>,
        notation -> Text,
        played_at -> Timestamp,
        prepared -> Bool,
    }
}

diesel::table! {
    notification_settings (account_id) {
        account_id -> BigInt,
        time_zone -> Text,
        turn_mail -> Text,
        digest_hour -> Integer,
        challenges -> Integer,
        challenge_replies -> Integer,
        game_over -> Integer,
        draw_offers -> Integer,
        reminders -> Integer,
        last_digest_on -> Nullable<Text>,
        updated_at -> Timestamp,
        mail_confirmations -> Integer,
    }
}

diesel::table! {
    inbound_mail (message_key) {
        message_key -> Text,
        account_id -> BigInt,
        game_id -> BigInt,
        outcome -> Text,
        answers -> Integer,
        handled_at -> Timestamp,
    }
}

diesel::table! {
    mail_in_deliveries (outcome) {
        outcome -> Text,
        count -> BigInt,
    }
}

diesel::table! {
    game_mutes (account_id, game_id) {
        account_id -> BigInt,
        game_id -> BigInt,
    }
}

diesel::table! {
    vacations (account_id) {
        account_id -> BigInt,
        year -> Integer,
        days_used -> Integer,
        until_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    server_secrets (name) {
        name -> Text,
        value -> Text,
    }
}

diesel::table! {
    game_events (id) {
        id -> BigInt,
        game_id -> BigInt,
        kind -> Text,
        ply -> Integer,
        actor_id -> Nullable<BigInt>,
        seat -> Nullable<Integer>,
        departure -> Nullable<Text>,
        status -> Text,
        to_move -> Nullable<Integer>,
        deadline_at -> Nullable<Timestamp>,
        result -> Nullable<Text>,
        result_reason -> Nullable<Text>,
        position -> Text,
        created_at -> Timestamp,
        tx -> BigInt,
        mail_composed -> Bool,
    }
}

diesel::table! {
    event_cursors (consumer) {
        consumer -> Text,
        tx -> BigInt,
        event_id -> BigInt,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    conditional_moves (game_id, seat) {
        game_id -> BigInt,
        seat -> Integer,
        ply -> Integer,
        lines -> Text,
        updated_at -> Timestamp,
        dropped_ply -> Nullable<Integer>,
        dropped_move -> Nullable<Text>,
    }
}

diesel::table! {
    move_messages (id) {
        id -> BigInt,
        game_id -> BigInt,
        seat -> Integer,
        account_id -> BigInt,
        ply -> Integer,
        action -> Text,
        body -> Text,
        sent_at -> Timestamp,
    }
}

diesel::table! {
    message_game_mutes (account_id, game_id) {
        account_id -> BigInt,
        game_id -> BigInt,
    }
}

diesel::table! {
    message_person_mutes (account_id, muted_account_id) {
        account_id -> BigInt,
        muted_account_id -> BigInt,
    }
}

diesel::joinable!(api_tokens -> accounts (account_id));
diesel::table! {
    open_seats (game_id, seat) {
        game_id -> BigInt,
        seat -> Integer,
    }
}

diesel::table! {
    rematches (game_id) {
        game_id -> BigInt,
        rematch_id -> BigInt,
    }
}

diesel::table! {
    tournaments (id) {
        id -> BigInt,
        name -> Text,
        organiser_id -> BigInt,
        kind -> Text,
        options -> Text,
        clock -> Text,
        timeout_mode -> Text,
        format -> Text,
        double_round -> Integer,
        all_at_once -> Integer,
        table_seats -> Nullable<Integer>,
        rounds -> Nullable<Integer>,
        entry_closes_at -> Timestamp,
        max_players -> Nullable<Integer>,
        status -> Text,
        current_round -> Integer,
        created_at -> Timestamp,
        started_at -> Nullable<Timestamp>,
        finished_at -> Nullable<Timestamp>,
        start_when_full -> Integer,
    }
}

diesel::table! {
    tournament_entries (tournament_id, account_id) {
        tournament_id -> BigInt,
        account_id -> BigInt,
        entry_number -> Integer,
        joined_at -> Timestamp,
        left_before_round -> Nullable<Integer>,
        left_reason -> Nullable<Text>,
    }
}

diesel::table! {
    tournament_games (game_id) {
        game_id -> BigInt,
        tournament_id -> BigInt,
        round -> Integer,
        placings -> Nullable<Text>,
    }
}

diesel::table! {
    tournament_pairings (tournament_id, round, board) {
        tournament_id -> BigInt,
        round -> Integer,
        board -> Integer,
        seats -> Text,
    }
}

diesel::table! {
    tournament_byes (tournament_id, round) {
        tournament_id -> BigInt,
        round -> Integer,
        account_id -> BigInt,
    }
}

diesel::table! {
    inbound_tournament_mail (message_key) {
        message_key -> Text,
        account_id -> BigInt,
        tournament_id -> BigInt,
        outcome -> Text,
        answers -> Integer,
        handled_at -> Timestamp,
    }
}

diesel::joinable!(bot_claims -> games (game_id));
diesel::joinable!(game_seats -> games (game_id));
diesel::joinable!(game_seats -> accounts (account_id));
diesel::joinable!(moves -> games (game_id));
diesel::joinable!(game_events -> games (game_id));
diesel::joinable!(sign_in_codes -> accounts (account_id));
diesel::joinable!(browser_sessions -> accounts (account_id));
diesel::joinable!(notification_settings -> accounts (account_id));
diesel::joinable!(game_mutes -> games (game_id));
diesel::joinable!(open_seats -> games (game_id));
diesel::joinable!(inbound_mail -> accounts (account_id));
diesel::joinable!(inbound_mail -> games (game_id));
diesel::joinable!(vacations -> accounts (account_id));
diesel::joinable!(conditional_moves -> games (game_id));
diesel::joinable!(tournament_entries -> tournaments (tournament_id));
diesel::joinable!(tournament_entries -> accounts (account_id));
diesel::joinable!(tournament_games -> tournaments (tournament_id));
diesel::joinable!(tournament_games -> games (game_id));
diesel::joinable!(tournament_byes -> tournaments (tournament_id));
diesel::joinable!(tournament_pairings -> tournaments (tournament_id));
diesel::joinable!(inbound_tournament_mail -> tournaments (tournament_id));
diesel::joinable!(inbound_tournament_mail -> accounts (account_id));

diesel::table! {
    rating_history (id) {
        id -> BigInt,
        account_id -> BigInt,
        rating_kind -> Text,
        game_id -> BigInt,
        rating_before -> Double,
        deviation_before -> Double,
        volatility_before -> Double,
        rating_after -> Double,
        deviation_after -> Double,
        volatility_after -> Double,
        rated_at -> Timestamp,
    }
}

diesel::joinable!(rating_history -> accounts (account_id));
diesel::joinable!(rating_history -> games (game_id));

diesel::joinable!(move_messages -> games (game_id));
diesel::joinable!(move_messages -> accounts (account_id));

diesel::table! {
    webhook_endpoints (id) {
        id -> BigInt,
        account_id -> BigInt,
        url -> Text,
        kinds -> Text,
        format -> Text,
        secret -> Text,
        ntfy_token -> Nullable<Text>,
        created_at -> Timestamp,
        failing_since -> Nullable<Timestamp>,
        disabled_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    webhook_deliveries (id) {
        id -> BigInt,
        endpoint_id -> BigInt,
        event_id -> Nullable<BigInt>,
        webhook_id -> Text,
        event_type -> Text,
        body -> Text,
        attempts -> Integer,
        next_try_at -> Timestamp,
        status -> Text,
        last_status -> Nullable<Integer>,
        last_error -> Nullable<Text>,
        duration_ms -> Nullable<BigInt>,
        delivered_at -> Nullable<Timestamp>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    webhook_attempts (id) {
        id -> BigInt,
        endpoint_id -> BigInt,
        webhook_id -> Text,
        event_type -> Text,
        at -> Timestamp,
        delivered -> Bool,
        status -> Nullable<Integer>,
        duration_ms -> BigInt,
        error -> Nullable<Text>,
    }
}

diesel::table! {
    channel_switches (account_id, channel, category) {
        account_id -> BigInt,
        channel -> Text,
        category -> Text,
        enabled -> Bool,
    }
}

diesel::joinable!(webhook_deliveries -> webhook_endpoints (endpoint_id));

diesel::table! {
    push_subscriptions (id) {
        id -> BigInt,
        account_id -> BigInt,
        endpoint -> Text,
        p256dh -> Text,
        auth -> Text,
        name -> Text,
        created_at -> Timestamp,
        last_used -> Nullable<Timestamp>,
    }
}

diesel::table! {
    push_deliveries (id) {
        id -> BigInt,
        subscription_id -> BigInt,
        event_id -> BigInt,
        body -> Text,
        ttl -> Integer,
        urgency -> Text,
        attempts -> Integer,
        next_try_at -> Timestamp,
        status -> Text,
        last_status -> Nullable<Integer>,
        last_error -> Nullable<Text>,
        delivered_at -> Nullable<Timestamp>,
        created_at -> Timestamp,
    }
}

diesel::joinable!(push_deliveries -> push_subscriptions (subscription_id));

diesel::allow_tables_to_appear_in_same_query!(
    accounts,
    api_tokens,
    bot_claims,
    conditional_moves,
    sign_in_codes,
    browser_sessions,
    mail_outbox,
    games,
    game_events,
    event_cursors,
    game_seats,
    moves,
    notification_settings,
    game_mutes,
    vacations,
    server_secrets,
    inbound_mail,
    mail_in_deliveries,
    open_seats,
    rematches,
    tournaments,
    tournament_entries,
    tournament_games,
    tournament_pairings,
    tournament_byes,
    inbound_tournament_mail,
    rating_history,
    move_messages,
    message_game_mutes,
    message_person_mutes,
    webhook_endpoints,
    webhook_deliveries,
    webhook_attempts,
    channel_switches,
    push_subscriptions,
    push_deliveries
);
