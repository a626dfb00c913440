CREATE TABLE "idempotency_keys" (
	"caller" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer,
	"answer" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_caller_key_pk" PRIMARY KEY("caller","key")
);
--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_at" ON "idempotency_keys" USING btree ("expires_at");