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
CREATE TABLE "workloads" (
	"tenant" text NOT NULL,
	"name" text NOT NULL,
	"ordinal" integer NOT NULL,
	"vmid" integer NOT NULL,
	"mac" text NOT NULL,
	"address" text NOT NULL,
	"cores" integer NOT NULL,
	"memory_mb" integer NOT NULL,
	"disk_gb" integer,
	"ssh_keys" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"login_user" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workloads_tenant_name_pk" PRIMARY KEY("tenant","name"),
	CONSTRAINT "workloads_vmid_unique" UNIQUE("vmid"),
	CONSTRAINT "workloads_tenant_ordinal" UNIQUE("tenant","ordinal")
);
--> statement-breakpoint
CREATE TABLE "records" (
	"tenant" text NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "records_tenant_name_pk" PRIMARY KEY("tenant","name")
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"tenant" text NOT NULL,
	"name" text NOT NULL,
	"trust_class" text NOT NULL,
	"mac" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "devices_tenant_name_pk" PRIMARY KEY("tenant","name")
);
--> statement-breakpoint
CREATE TABLE "device_addresses" (
	"tenant" text NOT NULL,
	"device" text NOT NULL,
	"trust_class" text NOT NULL,
	"address" text NOT NULL,
	"mac" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_addresses_tenant_device_pk" PRIMARY KEY("tenant","device"),
	CONSTRAINT "device_addresses_address" UNIQUE("address"),
	CONSTRAINT "device_addresses_mac" UNIQUE("mac")
);
--> statement-breakpoint
CREATE TABLE "wifi_keys" (
	"tenant" text NOT NULL,
	"name" text NOT NULL,
	"trust_class" text NOT NULL,
	"ssid" text NOT NULL,
	"psk" text NOT NULL,
	"fingerprint" text NOT NULL,
	"mac" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wifi_keys_tenant_name_pk" PRIMARY KEY("tenant","name")
);
--> statement-breakpoint
CREATE TABLE "broker_accounts" (
	"tenant" text NOT NULL,
	"name" text NOT NULL,
	"device" text,
	"publish" jsonb NOT NULL,
	"subscribe" jsonb NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "broker_accounts_tenant_name_pk" PRIMARY KEY("tenant","name")
);
--> statement-breakpoint
CREATE TABLE "certificates" (
	"tenant" text NOT NULL,
	"name" text NOT NULL,
	"names" jsonb NOT NULL,
	"certificate_pem" text NOT NULL,
	"chain_pem" text NOT NULL,
	"public_key_fingerprint" text NOT NULL,
	"serial" text NOT NULL,
	"not_before" timestamp with time zone NOT NULL,
	"not_after" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "certificates_tenant_name_pk" PRIMARY KEY("tenant","name")
);
--> statement-breakpoint
ALTER TABLE "steps" ADD CONSTRAINT "steps_tenant_tenants_name_fk" FOREIGN KEY ("tenant") REFERENCES "public"."tenants"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workloads" ADD CONSTRAINT "workloads_tenant_tenants_name_fk" FOREIGN KEY ("tenant") REFERENCES "public"."tenants"("name") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "records" ADD CONSTRAINT "records_tenant_tenants_name_fk" FOREIGN KEY ("tenant") REFERENCES "public"."tenants"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_tenant_tenants_name_fk" FOREIGN KEY ("tenant") REFERENCES "public"."tenants"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_addresses" ADD CONSTRAINT "device_addresses_tenant_tenants_name_fk" FOREIGN KEY ("tenant") REFERENCES "public"."tenants"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_accounts" ADD CONSTRAINT "broker_accounts_tenant_tenants_name_fk" FOREIGN KEY ("tenant") REFERENCES "public"."tenants"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_tenant_tenants_name_fk" FOREIGN KEY ("tenant") REFERENCES "public"."tenants"("name") ON DELETE cascade ON UPDATE no action;