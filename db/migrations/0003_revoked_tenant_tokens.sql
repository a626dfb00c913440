CREATE TABLE "revoked_tenant_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"tenant" text NOT NULL,
	"revoked_at" timestamp with time zone DEFAULT now() NOT NULL
);
