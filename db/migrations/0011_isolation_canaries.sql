CREATE TABLE "canaries" (
	"name" text PRIMARY KEY NOT NULL,
	"api_token" text NOT NULL,
	"broker_password" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "isolation_checks" (
	"run_id" text PRIMARY KEY NOT NULL,
	"workflow_id" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone DEFAULT now() NOT NULL,
	"passed" boolean NOT NULL,
	"result" jsonb NOT NULL
);
