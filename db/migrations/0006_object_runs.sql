CREATE TABLE "object_runs" (
	"object" text NOT NULL,
	"tenant" text NOT NULL,
	"workflow_id" text NOT NULL,
	"run_id" text NOT NULL,
	"operation" text NOT NULL,
	"state" text NOT NULL,
	"failure" jsonb,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	"claim_expires_at" timestamp with time zone,
	"answer_id" text,
	"request_hash" text,
	"answer" text,
	"answered_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	CONSTRAINT "object_runs_object_workflow_id_pk" PRIMARY KEY("object","workflow_id")
);
--> statement-breakpoint
CREATE INDEX "object_runs_tenant" ON "object_runs" USING btree ("tenant");--> statement-breakpoint
CREATE INDEX "object_runs_answered_at" ON "object_runs" USING btree ("answered_at");--> statement-breakpoint
-- A tenant's own runs are part of the tenant a read returns (its condition): writing one bumps the
-- tenant's version, as a step outcome does (0001). A delivery mark changes nothing a read shows.
CREATE FUNCTION object_runs_bump_tenant_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE r object_runs;
BEGIN
  r := COALESCE(NEW, OLD);
  IF r.object = 'tenants/' || r.tenant THEN
    UPDATE tenants SET version = version WHERE name = r.tenant;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER object_runs_tenant_version AFTER INSERT OR DELETE OR UPDATE OF run_id, operation, state, failure, since ON object_runs FOR EACH ROW EXECUTE FUNCTION object_runs_bump_tenant_version();
