SELECT pg_advisory_lock(hashtext('postbus.roles'));
SELECT format('CREATE ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT', :'role') WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'role') \gexec
SELECT format('ALTER ROLE %I PASSWORD %L', :'role', :'password') \gexec
SELECT format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), :'role') \gexec
SELECT format('CREATE SCHEMA IF NOT EXISTS %I AUTHORIZATION %I', :'service', :'role') \gexec
SELECT format('ALTER SCHEMA %I OWNER TO %I', :'service', :'role') \gexec
-- What an administrator's connection created in the schema before the roles existed moves to the role.
SELECT format('ALTER TABLE %I.%I OWNER TO %I', n.nspname, k.relname, :'role')
  FROM pg_class k JOIN pg_namespace n ON n.oid = k.relnamespace
 WHERE n.nspname = :'service' AND k.relkind IN ('r', 'p', 'v', 'm', 'f') AND pg_get_userbyid(k.relowner) <> :'role' \gexec
SELECT format('ALTER SEQUENCE %I.%I OWNER TO %I', n.nspname, k.relname, :'role')
  FROM pg_class k JOIN pg_namespace n ON n.oid = k.relnamespace
 WHERE n.nspname = :'service' AND k.relkind = 'S' AND pg_get_userbyid(k.relowner) <> :'role'
   AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = k.oid AND d.deptype IN ('a', 'i')) \gexec
SELECT format('ALTER ROUTINE %s OWNER TO %I', p.oid::regprocedure, :'role')
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE n.nspname = :'service' AND pg_get_userbyid(p.proowner) <> :'role' \gexec
SELECT format('REVOKE ALL ON DATABASE %I FROM PUBLIC', current_database()) \gexec
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
