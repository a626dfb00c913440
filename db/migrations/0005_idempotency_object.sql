ALTER TABLE "idempotency_keys" ADD COLUMN "object" text;--> statement-breakpoint
CREATE INDEX "idempotency_keys_object" ON "idempotency_keys" USING btree ("object" text_pattern_ops);