CREATE TABLE "tenant_leases" (
	"tenant" text NOT NULL,
	"holder" text NOT NULL,
	"mode" text NOT NULL,
	"operation" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tenant_leases_tenant_holder_pk" PRIMARY KEY("tenant","holder")
);
--> statement-breakpoint
CREATE INDEX "tenant_leases_tenant" ON "tenant_leases" USING btree ("tenant");