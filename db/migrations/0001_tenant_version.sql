ALTER TABLE "tenants" ADD COLUMN "version" bigint DEFAULT 1 NOT NULL;--> statement-breakpoint
-- Every change to a tenant's row bumps its version, whatever writes it.
CREATE FUNCTION tenants_bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.version := OLD.version + 1;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER tenants_version BEFORE UPDATE ON tenants FOR EACH ROW EXECUTE FUNCTION tenants_bump_version();
--> statement-breakpoint
-- A step outcome is part of the tenant a read returns: writing one bumps the tenant's version too.
-- When the steps go with their tenant (the cascade), the row is already gone and nothing is touched.
CREATE FUNCTION steps_bump_tenant_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tenants SET version = version WHERE name = COALESCE(NEW.tenant, OLD.tenant);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER steps_tenant_version AFTER INSERT OR UPDATE OR DELETE ON steps FOR EACH ROW EXECUTE FUNCTION steps_bump_tenant_version();
