// The SQLite functions the store's SQL calls, defined in PostgreSQL with SQLite's answers, so one
// text of each statement serves both engines. JSON is read as `json`, not `jsonb`, to keep the
// key order and duplicates SQLite keeps. Created (or replaced) before the migrations run.
export const COMPAT_FUNCTIONS = `
  CREATE OR REPLACE FUNCTION instr(haystack text, needle text) RETURNS integer
    LANGUAGE sql IMMUTABLE AS 'SELECT strpos(haystack, needle)';
  CREATE OR REPLACE FUNCTION max(a double precision, b double precision) RETURNS double precision
    LANGUAGE sql IMMUTABLE AS 'SELECT greatest(a, b)';
  CREATE OR REPLACE FUNCTION json_valid(document text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
    BEGIN
      PERFORM document::json;
      RETURN document IS NOT NULL;
    EXCEPTION WHEN others THEN
      RETURN false;
    END $$;
  CREATE OR REPLACE FUNCTION json_scalar_text(item json) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE json_typeof(item) WHEN 'string' THEN item #>> '{}' WHEN 'null' THEN NULL
      WHEN 'boolean' THEN CASE WHEN item::text = 'true' THEN '1' ELSE '0' END ELSE item::text END $$;
  CREATE OR REPLACE FUNCTION json_each(document text) RETURNS TABLE (key text, value text) LANGUAGE sql IMMUTABLE AS $$
    SELECT o.key, json_scalar_text(o.value)
      FROM json_each(CASE WHEN json_typeof(document::json) = 'object' THEN document::json ELSE '{}'::json END) o
    UNION ALL
    SELECT (a.n - 1)::text, json_scalar_text(a.value)
      FROM json_array_elements(CASE WHEN json_typeof(document::json) = 'array' THEN document::json ELSE '[]'::json END)
        WITH ORDINALITY a(value, n) $$;
  CREATE OR REPLACE FUNCTION json_path(path text) RETURNS text[] LANGUAGE sql IMMUTABLE AS
    $$ SELECT CASE WHEN path = '$' THEN '{}'::text[] ELSE string_to_array(substr(path, 3), '.') END $$;
  CREATE OR REPLACE FUNCTION json_extract(document text, path text) RETURNS text LANGUAGE sql IMMUTABLE AS
    $$ SELECT json_scalar_text(document::json #> json_path(path)) $$;
  CREATE OR REPLACE FUNCTION json_type(document text, path text) RETURNS text LANGUAGE sql IMMUTABLE AS
    $$ SELECT json_typeof(document::json #> json_path(path)) $$;
  CREATE OR REPLACE AGGREGATE json_group_array(text) (SFUNC = array_append, STYPE = text[], INITCOND = '{}', FINALFUNC = array_to_json);
`;
