import type { Knex } from 'knex';

/**
 * Decision 0211: the API remembers verified bearer tokens for a short while. Every change that
 * could refuse or narrow a remembered caller is announced on the `jobfair_auth_changed` channel
 * (delivered at commit, to every API replica's listener), whoever makes it — the API, a script, an
 * operator at a psql prompt:
 * - `t:<token_hash>`: a token's revocation, expiry, scopes, owner or hash changed, or it was deleted
 *   (not `last_used_at`, which changes once a minute per token and refuses nobody);
 * - `u:<user id>`: a user's role changed or the user was deleted; a team membership added, changed
 *   or removed (a deleted team removes its memberships by cascade, one row each);
 * - `*`: one of these tables was truncated.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION jobfair_auth_changed_token() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('jobfair_auth_changed', 't:' || OLD.token_hash);
      RETURN NULL;
    END $$;
    CREATE FUNCTION jobfair_auth_changed_user() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_TABLE_NAME = 'users' THEN
        PERFORM pg_notify('jobfair_auth_changed', 'u:' || OLD.id::text);
      ELSE
        IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('jobfair_auth_changed', 'u:' || OLD.user_id::text); END IF;
        IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('jobfair_auth_changed', 'u:' || NEW.user_id::text); END IF;
      END IF;
      RETURN NULL;
    END $$;
    CREATE FUNCTION jobfair_auth_changed_all() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('jobfair_auth_changed', '*');
      RETURN NULL;
    END $$;
    CREATE TRIGGER api_tokens_auth_changed AFTER UPDATE OF revoked_at, expires_at, scopes, user_id, token_hash OR DELETE ON api_tokens
      FOR EACH ROW EXECUTE FUNCTION jobfair_auth_changed_token();
    CREATE TRIGGER users_auth_changed AFTER UPDATE OF role OR DELETE ON users
      FOR EACH ROW EXECUTE FUNCTION jobfair_auth_changed_user();
    CREATE TRIGGER team_members_auth_changed AFTER INSERT OR UPDATE OR DELETE ON team_members
      FOR EACH ROW EXECUTE FUNCTION jobfair_auth_changed_user();
    CREATE TRIGGER api_tokens_auth_truncated AFTER TRUNCATE ON api_tokens FOR EACH STATEMENT EXECUTE FUNCTION jobfair_auth_changed_all();
    CREATE TRIGGER users_auth_truncated AFTER TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION jobfair_auth_changed_all();
    CREATE TRIGGER team_members_auth_truncated AFTER TRUNCATE ON team_members FOR EACH STATEMENT EXECUTE FUNCTION jobfair_auth_changed_all();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER IF EXISTS team_members_auth_truncated ON team_members;
    DROP TRIGGER IF EXISTS users_auth_truncated ON users;
    DROP TRIGGER IF EXISTS api_tokens_auth_truncated ON api_tokens;
    DROP TRIGGER IF EXISTS team_members_auth_changed ON team_members;
    DROP TRIGGER IF EXISTS users_auth_changed ON users;
    DROP TRIGGER IF EXISTS api_tokens_auth_changed ON api_tokens;
    DROP FUNCTION IF EXISTS jobfair_auth_changed_all();
    DROP FUNCTION IF EXISTS jobfair_auth_changed_user();
    DROP FUNCTION IF EXISTS jobfair_auth_changed_token();
  `);
}
