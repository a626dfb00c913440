CREATE TABLE "reconcile_plans" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant" text NOT NULL,
	"prune" boolean NOT NULL,
	"digest" text NOT NULL,
	"objects" jsonb NOT NULL,
	"asked_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"applied_at" timestamp with time zone,
	"applied_by" text
);
--> statement-breakpoint
CREATE INDEX "reconcile_plans_expires_at" ON "reconcile_plans" USING btree ("expires_at");