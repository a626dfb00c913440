CREATE TABLE "tenants" (
	"name" text PRIMARY KEY NOT NULL,
	"index" integer NOT NULL,
	"status" text NOT NULL,
	"api_token_hash" text,
	"tsig_secret" text NOT NULL,
	"state_secret" text NOT NULL,
	"log_ingest_token" text,
	"log_read_token" text,
	"dashboard_password" text,
	"dashboard_org_id" integer,
	"last_attempt_failed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tenants_index_unique" UNIQUE("index")
);
--> statement-breakpoint
CREATE TABLE "steps" (
	"tenant" text NOT NULL,
	"name" text NOT NULL,
	"ok" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "steps_tenant_name_pk" PRIMARY KEY("tenant","name")
);
--> statement-breakpoint
CREATE TABLE "admissions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"mac" text,
	"expires_at" timestamp with time zone NOT NULL,
	"spent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"tenant" text,
	"object" text NOT NULL,
	"detail" jsonb
);
--> statement-breakpoint
ALTER TABLE "steps" ADD CONSTRAINT "steps_tenant_tenants_name_fk" FOREIGN KEY ("tenant") REFERENCES "public"."tenants"("name") ON DELETE cascade ON UPDATE no action;