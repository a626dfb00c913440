-- The Proxmox SDN lock tokens the service took and has not seen released (db/schema/sdn-lock-tokens.ts).
CREATE TABLE "sdn_lock_tokens" (
	"token" text PRIMARY KEY NOT NULL,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL
);
