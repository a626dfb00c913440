/**
 * Generated from openapi.yaml by openapi-typescript (npm run client:write). Do not edit.
 */

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness; never touches the database */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description alive */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Liveness"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: the database answers and the schema is in place */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description ready */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Readiness"];
                    };
                };
                /** @description not ready; the reason is logged */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Readiness"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/version": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The serving build */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description version */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Version"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Admit a tenant name: a single-use enrollment token */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Optional. The first answer to a key (status and body, secrets included) is kept for the site's window (24 hours by default), bound to the caller's token and to this request. A repeat with the same key, token and body gets that answer again with `Idempotent-Replayed: true`, also after the connection dropped before it arrived; a repeat while the first still runs waits for it; the same key with another body answers 422. 5xx and 401 answers are not kept: the repeat runs again (a 502 resumes). Once the object is deleted, or a later call hands out its secret anew, the kept answer is purged: a repeat then runs as a new request. Without the header the call behaves as without idempotency. */
                    "Idempotency-Key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["AdmissionRequest"];
                };
            };
            responses: {
                /** @description admitted */
                201: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Admission"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description operator only */
                403: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description conflict */
                409: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description request body larger than 64 KB */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the Idempotency-Key was used with another request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the admission's Wi-Fi key did not land on the wireless controller; no token was issued, repeat the call */
                502: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admissions/{t}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Withdraw an unused admission (its Wi-Fi key is revoked; the token just expires) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    t: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description withdrawn */
                204: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description operator only */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description a backend step failed */
                502: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StepFailed"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every tenant, ordered by index, without secrets */
        get: {
            parameters: {
                query?: {
                    /** @description also the isolation check's two canary tenants (`canarya`, `canaryb`), which the list leaves out by default */
                    canaries?: "true" | "false";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description tenants */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TenantList"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description operator only */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create, resume, restore or reconcile a tenant (an ensure)
         * @description An enrollment token is spent by the create that registers its tenant, also when a later step fails (502): that answer carries the tenant's own token (`tenant.api_token`), and the repeat that resumes the create presents it. The spent enrollment token presented again while its tenant is not ready answers 401 `unauthorized: this enrollment token was spent; resume with the tenant's own token (api_token in the 502 answer)`.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Optional. The first answer to a key (status and body, secrets included) is kept for the site's window (24 hours by default), bound to the caller's token and to this request. A repeat with the same key, token and body gets that answer again with `Idempotent-Replayed: true`, also after the connection dropped before it arrived; a repeat while the first still runs waits for it; the same key with another body answers 422. 5xx and 401 answers are not kept: the repeat runs again (a 502 resumes). Once the object is deleted, or a later call hands out its secret anew, the kept answer is purged: a repeat then runs as a new request. Without the header the call behaves as without idempotency. */
                    "Idempotency-Key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["TenantCreateRequest"];
                };
            };
            responses: {
                /** @description resumed or reconciled; carries the secrets */
                200: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Tenant"];
                    };
                };
                /** @description created, restored or reissued; carries the secrets (a restore also what the backends still hold of it, `objects`) */
                201: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RestoredTenant"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description conflict */
                409: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description request body larger than 64 KB */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the Idempotency-Key was used with another request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description a backend step failed; the partial tenant with its secrets */
                502: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TenantCreateFailure"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{t}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The runs of a tenant and its objects, newest first: operation, object, status, outcome, failed steps
         * @description From Temporal's visibility store, with the failed step and the backend's answer the registry keeps for a parked run. The tenant's own token sees its own; the operator sees any (and `GET /v1/runs` every tenant's, a deleted one's too).
         */
        get: {
            parameters: {
                query?: {
                    /** @description only runs of this operation */
                    operation?: "tenant-create" | "tenant-delete" | "tenant-reconcile" | "tenant-plan" | "reconcile-sweep" | "broker-account-ensure" | "broker-account-delete" | "workload-create" | "workload-delete" | "record-put" | "record-delete" | "device-address-reserve" | "device-address-release" | "device-mac-move" | "wifi-key-issue" | "wifi-key-revoke" | "admission-wifi-key" | "isolation-check";
                    /** @description only runs in this status */
                    status?: "running" | "parked" | "completed" | "failed" | "terminated" | "timed-out" | "canceled" | "continued-as-new";
                    /** @description runs per page, 1 to 100 (default 20) */
                    limit?: number;
                    /** @description a previous answer's `next_page` */
                    page?: string;
                };
                header?: never;
                path: {
                    t: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description runs */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RunList"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every run of the site (the sweep's included), newest first; `tenant` for one tenant's, deleted or not */
        get: {
            parameters: {
                query?: {
                    /** @description only runs of this operation */
                    operation?: "tenant-create" | "tenant-delete" | "tenant-reconcile" | "tenant-plan" | "reconcile-sweep" | "broker-account-ensure" | "broker-account-delete" | "workload-create" | "workload-delete" | "record-put" | "record-delete" | "device-address-reserve" | "device-address-release" | "device-mac-move" | "wifi-key-issue" | "wifi-key-revoke" | "admission-wifi-key" | "isolation-check";
                    /** @description only runs in this status */
                    status?: "running" | "parked" | "completed" | "failed" | "terminated" | "timed-out" | "canceled" | "continued-as-new";
                    /** @description runs per page, 1 to 100 (default 20) */
                    limit?: number;
                    /** @description a previous answer's `next_page` */
                    page?: string;
                    /** @description only this tenant's runs */
                    tenant?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description runs */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RunList"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description operator only */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The events feed: drift a sweep found, parked runs, runs given up, oldest first after `after`
         * @description The same events the site's webhook receives (`SITE_EVENTS_WEBHOOK_URL`, signed as Standard Webhooks sign), for a reader that polls instead: keep the last `seq` and ask again with `after`.
         */
        get: {
            parameters: {
                query?: {
                    /** @description only events after this `seq` (default 0: from the start) */
                    after?: number;
                    /** @description events per answer, 1 to 500 (default 100) */
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description events */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EventList"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description operator only */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sweeps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The last sweeps' results, newest first: per tenant what was not in place, and the counts */
        get: {
            parameters: {
                query?: {
                    /** @description 1 to 100 (default 10) */
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description sweeps */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SweepList"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description operator only */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{t}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One tenant, without secrets */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    t: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the tenant */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Tenant"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a tenant and its backend objects (not its fabric network) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    t: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description deleted */
                204: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description conflict */
                409: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description a backend step failed */
                502: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StepFailed"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{t}/reconcile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Re-ensure every backend of a tenant; or plan it (`plan=true`, saved) and apply the plan by id (`apply`) */
        post: {
            parameters: {
                query?: {
                    /** @description with `plan=true`: a plan that also removes what the backends hold of the tenant that the registry does not (listed `unknown`), when applied; alone, refused: prune only through a saved plan */
                    prune?: "true" | "false";
                    /** @description observe every backend and answer what a reconcile would change, changing nothing, and save it as a plan to apply by its `plan_id` */
                    plan?: "true" | "false";
                    /** @description carry out a saved plan exactly: 409 naming what moved when any object it covered changed since, or when it was applied already or expired; prunes only what it listed */
                    apply?: string;
                };
                header?: never;
                path: {
                    t: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description reconciled; carries the log tokens and the dashboard password only, and what the reconcile found of each backend object */
                200: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ReconciledTenant"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description operator only */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description conflict */
                409: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description a backend step failed */
                502: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TenantCreateFailure"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/isolation-checks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run the isolation check now: each canary's credentials against the other canary's objects, on every backend
         * @description Answers when the check has run (the canary pair is created on first use, through the normal create run). A check already running (the scheduled one) is joined, not doubled. `passed: false` is still a 200: the crossings are the answer.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the check ran; its result */
                200: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["IsolationCheck"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description operator only */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/isolation-checks/latest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The last isolation check that finished, scheduled or asked for */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the latest check */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["IsolationCheck"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description operator only */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{t}/workloads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's workloads, by ordinal */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    t: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description workloads */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkloadList"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a workload (a VM) or re-apply its sizing; an ensure
         * @description Clones the site's newest template into the workload's derived VMID, sizes it, attaches it to the tenant's network with its derived MAC and address, writes the login user and keys, starts it and publishes `<name>.<zone>` with its PTR. Repeating it for the same name keeps the identity and takes the new sizing.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Optional. The first answer to a key (status and body, secrets included) is kept for the site's window (24 hours by default), bound to the caller's token and to this request. A repeat with the same key, token and body gets that answer again with `Idempotent-Replayed: true`, also after the connection dropped before it arrived; a repeat while the first still runs waits for it; the same key with another body answers 422. 5xx and 401 answers are not kept: the repeat runs again (a 502 resumes). Once the object is deleted, or a later call hands out its secret anew, the kept answer is purged: a repeat then runs as a new request. Without the header the call behaves as without idempotency. */
                    "Idempotency-Key"?: string;
                };
                path: {
                    t: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["WorkloadRequest"];
                };
            };
            responses: {
                /** @description the workload */
                201: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Workload"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description conflict */
                409: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description request body larger than 64 KB */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the Idempotency-Key was used with another request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the hypervisor or DNS step failed; the partial workload */
                502: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkloadCreateFailure"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{t}/workloads/{workload}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One workload */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    t: string;
                    workload: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the workload */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Workload"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a workload: stop and destroy its VM, remove its published names */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    t: string;
                    workload: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description deleted; its ordinal is free again */
                204: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description conflict */
                409: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description a backend step failed */
                502: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StepFailed"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{t}/records": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The names the tenant added, by name */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    t: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description records */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RecordList"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{t}/records/{record}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Publish `<record>.<zone>` for an address (an ensure)
         * @description An address of the tenant's subnet is published with its PTR; an address the tenant reserved for one of its devices gets a second name with no PTR. A workload's name, a device's published name, or a name the tenant published itself with its update key is refused.
         */
        put: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Optional. The first answer to a key (status and body, secrets included) is kept for the site's window (24 hours by default), bound to the caller's token and to this request. A repeat with the same key, token and body gets that answer again with `Idempotent-Replayed: true`, also after the connection dropped before it arrived; a repeat while the first still runs waits for it; the same key with another body answers 422. 5xx and 401 answers are not kept: the repeat runs again (a 502 resumes). Once the object is deleted, or a later call hands out its secret anew, the kept answer is purged: a repeat then runs as a new request. Without the header the call behaves as without idempotency. */
                    "Idempotency-Key"?: string;
                };
                path: {
                    t: string;
                    record: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["RecordPutRequest"];
                };
            };
            responses: {
                /** @description the record */
                200: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Record"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description conflict */
                409: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description request body larger than 64 KB */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the Idempotency-Key was used with another request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description a backend step failed */
                502: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StepFailed"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        /** Remove a name the tenant added (and its PTR) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    t: string;
                    record: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description removed */
                204: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description conflict */
                409: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description a backend step failed */
                502: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StepFailed"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{t}/broker-accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's broker accounts, by name, never a password */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    t: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description broker accounts */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BrokerAccountList"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Issue (or re-issue) an MQTT broker account; an ensure
         * @description The username is `<tenant>-<name>`. A new account gets a password minted by the service, returned once. Issuing again keeps the password and returns none; `password` restores one the tenant holds. Changes reach a client's next connection for certain; the broker also checks its open connections' later publishes, subscriptions and deliveries against them at once, without cutting them. A restored password cuts open connections.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Optional. The first answer to a key (status and body, secrets included) is kept for the site's window (24 hours by default), bound to the caller's token and to this request. A repeat with the same key, token and body gets that answer again with `Idempotent-Replayed: true`, also after the connection dropped before it arrived; a repeat while the first still runs waits for it; the same key with another body answers 422. 5xx and 401 answers are not kept: the repeat runs again (a 502 resumes). Once the object is deleted, or a later call hands out its secret anew, the kept answer is purged: a repeat then runs as a new request. Without the header the call behaves as without idempotency. */
                    "Idempotency-Key"?: string;
                };
                path: {
                    t: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["BrokerAccountRequest"];
                };
            };
            responses: {
                /** @description the account; `password` only when this call minted or was given one */
                201: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BrokerAccount"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description conflict */
                409: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description request body larger than 64 KB */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the Idempotency-Key was used with another request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the broker step failed; the account with its password */
                502: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BrokerAccountFailure"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{t}/broker-accounts/{account}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One broker account, without password */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    t: string;
                    account: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the account */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BrokerAccount"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a broker account: its open connections are cut and its next one refused */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    t: string;
                    account: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description deleted */
                204: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description conflict */
                409: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description a backend step failed */
                502: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StepFailed"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{t}/certificates/{certificate}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The current certificate of a name */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    t: string;
                    certificate: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the current certificate */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Certificate"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /**
         * Get a server certificate for `<certificate>.<tenant zone>` (and further labels) from the tenant service CA
         * @description Only the request's public key is used. The same key and names with more than 60 days left give the current certificate (200); a new key, changed names, or 60 days or less left issue a new one (201). Nothing is revoked.
         */
        put: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Optional. The first answer to a key (status and body, secrets included) is kept for the site's window (24 hours by default), bound to the caller's token and to this request. A repeat with the same key, token and body gets that answer again with `Idempotent-Replayed: true`, also after the connection dropped before it arrived; a repeat while the first still runs waits for it; the same key with another body answers 422. 5xx and 401 answers are not kept: the repeat runs again (a 502 resumes). Once the object is deleted, or a later call hands out its secret anew, the kept answer is purged: a repeat then runs as a new request. Without the header the call behaves as without idempotency. */
                    "Idempotency-Key"?: string;
                };
                path: {
                    t: string;
                    certificate: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CertificateRequest"];
                };
            };
            responses: {
                /** @description the current certificate, already issued for this key and these names */
                200: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Certificate"];
                    };
                };
                /** @description a certificate issued by this call */
                201: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Certificate"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description request body larger than 64 KB */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the Idempotency-Key was used with another request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description a backend step failed */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StepFailed"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        /** Forget a certificate; it is not revoked and stays valid until it expires */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    t: string;
                    certificate: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description forgotten */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{t}/certificates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's certificates: one per name, the current one */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    t: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description certificates */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CertificateList"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{t}/devices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's registered devices, by name */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    t: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description devices */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeviceList"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Register a device, or converge its entry (only the MAC can change)
         * @description An entry is identity, not authorization: it grants, reserves and names nothing. Registering again converges; a new MAC takes over the fixed address the device holds. The trust class cannot change, and the MAC cannot be cleared while the device holds a fixed address.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Optional. The first answer to a key (status and body, secrets included) is kept for the site's window (24 hours by default), bound to the caller's token and to this request. A repeat with the same key, token and body gets that answer again with `Idempotent-Replayed: true`, also after the connection dropped before it arrived; a repeat while the first still runs waits for it; the same key with another body answers 422. 5xx and 401 answers are not kept: the repeat runs again (a 502 resumes). Once the object is deleted, or a later call hands out its secret anew, the kept answer is purged: a repeat then runs as a new request. Without the header the call behaves as without idempotency. */
                    "Idempotency-Key"?: string;
                };
                path: {
                    t: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["DeviceRequest"];
                };
            };
            responses: {
                /** @description the device */
                201: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Device"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description conflict */
                409: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description request body larger than 64 KB */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the Idempotency-Key was used with another request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the device's fixed address did not move to its new MAC on the router; repeat the call */
                502: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeviceFailure"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{t}/devices/{device}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One registered device */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    t: string;
                    device: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the device */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Device"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Remove a device from the registry (it keeps its flashed Wi-Fi key) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    t: string;
                    device: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description removed */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{t}/devices/{device}/address": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A device's fixed address */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    t: string;
                    device: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the reservation */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeviceAddress"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Reserve a fixed address for a device: DHCP reservation for its MAC and `<device>.<zone>` (no PTR)
         * @description An empty body takes the lowest free address of the range of the device's trust class. Calling again converges and never moves a device. 400: the device is unregistered or has no MAC, the address is outside the tenant range, the trust class has no range here, the device's name is a workload's or a record's, or a different address is held. 409: the MAC already holds an address on the device network, the address is taken, the range is full, or the tenant holds its full share.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Optional. The first answer to a key (status and body, secrets included) is kept for the site's window (24 hours by default), bound to the caller's token and to this request. A repeat with the same key, token and body gets that answer again with `Idempotent-Replayed: true`, also after the connection dropped before it arrived; a repeat while the first still runs waits for it; the same key with another body answers 422. 5xx and 401 answers are not kept: the repeat runs again (a 502 resumes). Once the object is deleted, or a later call hands out its secret anew, the kept answer is purged: a repeat then runs as a new request. Without the header the call behaves as without idempotency. */
                    "Idempotency-Key"?: string;
                };
                path: {
                    t: string;
                    device: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["DeviceAddressRequest"];
                };
            };
            responses: {
                /** @description the reservation */
                201: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeviceAddress"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description conflict */
                409: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description request body larger than 64 KB */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the Idempotency-Key was used with another request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the router or DNS write did not land; the same call resumes */
                502: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeviceAddressFailure"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /** Release a device's fixed address (the device is not disconnected; it leases from the pool at next renewal) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    t: string;
                    device: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description released: the reservation and `<device>.<zone>` are gone */
                204: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description conflict */
                409: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the router or DNS write did not land; repeat the call */
                502: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeviceAddressFailure"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{t}/wifi-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's Wi-Fi keys, by name, never with a psk */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    t: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description keys */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WifiKeyList"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Issue a Wi-Fi key (the service chooses the psk; issuing again keeps it)
         * @description SSID and VLAN come from the trust class. `psk` only restores a key the tenant holds after the service lost its copy; the wireless controller is then made to match. The trust class of a key cannot change.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Optional. The first answer to a key (status and body, secrets included) is kept for the site's window (24 hours by default), bound to the caller's token and to this request. A repeat with the same key, token and body gets that answer again with `Idempotent-Replayed: true`, also after the connection dropped before it arrived; a repeat while the first still runs waits for it; the same key with another body answers 422. 5xx and 401 answers are not kept: the repeat runs again (a 502 resumes). Once the object is deleted, or a later call hands out its secret anew, the kept answer is purged: a repeat then runs as a new request. Without the header the call behaves as without idempotency. */
                    "Idempotency-Key"?: string;
                };
                path: {
                    t: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["WifiKeyRequest"];
                };
            };
            responses: {
                /** @description the key with its psk */
                201: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WifiKey"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description conflict */
                409: {
                    headers: {
                        /** @description present, `true`, when this is the kept answer to an earlier request with the same Idempotency-Key */
                        "Idempotent-Replayed"?: "true";
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description request body larger than 64 KB */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the Idempotency-Key was used with another request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the controller write did not land; the key with the same psk, repeating the call resumes */
                502: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WifiKeyFailure"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{t}/wifi-keys/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One Wi-Fi key, without its psk, with `secrets_stored` */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    t: string;
                    key: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the key */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WifiKey"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Revoke a Wi-Fi key: every device holding it stops associating
         * @description Revoking a WLAN's last key leaves one unusable placeholder entry, because the controller refuses an empty list.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    t: string;
                    key: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description revoked */
                204: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description conflict */
                409: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description a backend step failed */
                502: {
                    headers: {
                        /** @description the run that answered (its Temporal workflow id, e.g. `workload-create/acme/web`): open it in the Temporal UI or with `temporal workflow show -w` */
                        "Run-Id"?: string;
                        /** @description the step activities this call's attempt ran, in order, each `=ok` or `=failed`, e.g. `dns.check-name=ok, hypervisor.ensure-vm=failed` */
                        "Run-Steps"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StepFailed"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/fabric/egress": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every ready tenant's VRF, for the exit node's agent */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description VRFs of ready tenants */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Egress"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description database not migrated yet */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/codec/encode": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Temporal remote codec: encode payloads */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CodecPayloads"];
                };
            };
            responses: {
                /** @description encoded payloads */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CodecPayloads"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description operator only */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description request body larger than 64 KB */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/codec/decode": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Temporal remote codec: decode payloads */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CodecPayloads"];
                };
            };
            responses: {
                /** @description decoded payloads */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CodecPayloads"];
                    };
                };
                /** @description invalid request; the error text says why */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description no token or an unrecognised one */
                401: {
                    headers: {
                        /** @description the scheme and realm to present a token for */
                        "WWW-Authenticate": "Bearer realm=\"svc-api\"";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description operator only */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description request body larger than 64 KB */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description not configured at this site */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Liveness: {
            /** @enum {string} */
            status: "ok";
        };
        Readiness: {
            /** @enum {string} */
            status: "ok" | "unavailable";
            /** @enum {string} */
            database: "ok" | "unreachable" | "migrating";
        };
        Version: {
            version: string;
            commit: string;
            built: string;
        };
        Admission: {
            name: string;
            enrollment_token: string;
            /** Format: date-time */
            expires_at: string;
            wifi?: {
                ssid: string;
                psk: string;
                /**
                 * @description The client the key is bound to, lowercase colon-separated; absent for an unbound key.
                 * @example aa:bb:cc:dd:ee:ff
                 */
                mac?: string;
            };
        };
        Error: {
            error: string;
        };
        AdmissionRequest: {
            /** @example acme */
            name: string;
            /**
             * @description Binds the admission's Wi-Fi key to one computer: the key is issued on the site's MAC-filtered developer WLAN, whose allow-list holds this MAC beside the key until the key is revoked (withdrawal, expiry of the unused admission, re-admission, the tenant's delete). Refused (400) at a site with a developer network but no MAC-filtered developer WLAN, rather than issuing a key any client could use.
             * @example aa:bb:cc:dd:ee:ff
             */
            mac?: string;
        };
        StepFailed: components["schemas"]["Error"] & {
            failure?: components["schemas"]["RunFailure"];
        };
        RunFailure: {
            /** @description the step that failed, as the error text names it (`dns`, `hypervisor`, ...) */
            step: string;
            /** @description the step's activity in the run's history (`dns.publish-workload`) */
            activity?: string;
            /** @description `BackendFailed`: the backend failed after the step's retries (repeat the call); `BackendRefused`: it refused on purpose (the answer says what to change) */
            reason: string;
            /** @description the product that answered (`powerdns`, `proxmox`, `kea`, ...) */
            backend?: string;
            /** @description the backend's HTTP status, when it gave one */
            status?: number;
            /** @description the call and the backend's answer, as the run's history holds it: no host, no secret */
            answer?: string;
        };
        Tenant: {
            /** @example acme */
            name: string;
            index: number;
            /** @enum {string} */
            status: "provisioning" | "ready" | "deleting";
            /**
             * @description only on create and reconcile answers
             * @enum {string}
             */
            outcome?: "created" | "restored" | "reissued" | "resumed" | "reconciled";
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            network: components["schemas"]["Network"];
            fabric: components["schemas"]["Fabric"];
            dns: components["schemas"]["Dns"];
            state: components["schemas"]["State"];
            log: components["schemas"]["Log"];
            dashboard: components["schemas"]["Dashboard"];
            /** @description present when this call generated or received one */
            api_token?: string;
            secrets_stored: boolean;
            steps: components["schemas"]["Step"][];
            condition?: components["schemas"]["Condition"];
        };
        Network: {
            vrf_vni: number;
            vnet_vni_base: number;
            subnet: string;
            gateway: string;
        };
        Fabric: {
            controller_id: string;
            node: string;
        };
        Dns: {
            zone: string;
            reverse_zone: string;
            update_server: string;
            tsig_key_name: string;
            tsig_algorithm: string;
            /** @description create responses only */
            tsig_secret?: string;
        };
        State: {
            endpoint: string;
            bucket: string;
            key_prefix: string;
            access_key: string;
            /** @description create responses only */
            secret_key?: string;
        };
        Log: {
            account_id: number;
            /** @description absent at a site with no log store */
            endpoint?: string;
            select_header?: string;
            /** @description create and reconcile responses only */
            ingest_token?: string;
            /** @description create and reconcile responses only */
            read_token?: string;
        };
        /** @description empty at a site with no dashboard server */
        Dashboard: {
            url?: string;
            org_id?: number;
            username?: string;
            /** @description create and reconcile responses only */
            password?: string;
        };
        Step: {
            /** @enum {string} */
            name: "dns" | "resolver" | "state" | "network" | "device-address" | "log-store" | "dashboards";
            ok: boolean;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description reads only: the condition of the object's newest run */
        Condition: {
            /** @description the object is as asked and no run of it is in flight, parked or failed */
            ready: boolean;
            /** @description absent for an object no recorded run speaks of */
            run?: {
                /** @description the run (its Temporal workflow id, as the `Run-Id` header names it) */
                id: string;
                /** @description the Temporal run id of that workflow's execution */
                run_id: string;
                /** @description `tenant-create`, `workload-delete`, ... */
                operation: string;
                /**
                 * @description `parked`: a step failed and the run waits for the call to be repeated, which resumes it; `given-up`: no repeat came within the parked timeout (repeat the call: a fresh run re-ensures every step); `failed`: the run ended at a failed step (a reconcile)
                 * @enum {string}
                 */
                state: "in-flight" | "parked" | "done" | "failed" | "given-up" | "superseded";
            };
            failure?: components["schemas"]["RunFailure"] & unknown;
            /** Format: date-time */
            since?: string;
        };
        RestoredTenant: components["schemas"]["Tenant"] & {
            /** @description on a restore only, when the backends hold any: objects of the tenant the registry lost (`unknown`), never adopted by guess. A broker client comes back into the registry when the tenant issues the account again with its `password`; a VM of a lost workload stays as it is until an operator removes it (`POST /v1/tenants/{t}/reconcile?prune=true`) */
            objects?: components["schemas"]["ReconciledObject"][];
        };
        ReconciledObject: {
            /** @description the tenant step (`dns`, `network`, ...) or the area of its objects (`hypervisor`, `wifi`, `broker`) that holds the object */
            area: string;
            object: string;
            /**
             * @description `needs-restore`: only the tenant can restore it (a broker client's password, an unreadable Wi-Fi key); `unknown`: the backend holds it, and no registry row and no run claims it (removed with `prune=true`); `in-flight`: a run holds it (in flight, or parked after a failed step until its call is repeated): nothing was changed or removed of it, `run` names the run; `unfinished`: the registry holds it unfinished and no run does (its create gave up): nothing was changed of it, and repeating its create finishes it
             * @enum {string}
             */
            result: "in-place" | "created" | "corrected" | "needs-restore" | "unknown" | "removed" | "in-flight" | "unfinished";
            /** @description for `corrected`: the fields that differed */
            fields?: string[];
            /** @description what the backend warned of without failing the step, e.g. an SDN apply that could not reload a node that runs none of the site's workloads */
            warnings?: string[];
            /** @description the write that made the object so, where one write carries several: the SDN apply that made the tenant's network run (`applied: by this tenant` with how many `tenants`' staged edits it carried, or `by another tenant` whose apply carried this one's); for a change of a whole-object write (a Kea reservation, a Wi-Fi key on its WLAN), how many changes the write carried (`objects`), this one included */
            batch?: {
                /** @enum {string} */
                applied: "by this tenant";
                tenants: number;
            } | {
                /** @enum {string} */
                applied: "by another tenant";
            } | {
                objects: number;
            };
            /** @description for `in-flight`: the run that holds the object (its id, as the `Run-Id` header names it, e.g. `workload-create/acme/db`); for `unfinished`: its last run */
            run?: string;
            /** @description for `in-flight` and `unfinished`: why the object was left alone, and which call finishes it */
            note?: string;
        };
        TenantCreateFailure: {
            error: string;
            tenant?: components["schemas"]["Tenant"] & unknown;
            failure?: components["schemas"]["RunFailure"] & unknown;
        };
        /**
         * @example {
         *       "name": "acme"
         *     }
         */
        TenantCreateRequest: {
            /** @example acme */
            name: string;
            /** @description restore only */
            index?: number;
            /** @description restore only; base64 of at least 16 bytes */
            tsig_secret?: string;
            /** @description restore only; 8 to 40 characters, no control characters */
            state_secret?: string;
            /** @description restore only */
            api_token?: string;
        };
        TenantList: {
            tenants: components["schemas"]["Tenant"][];
        };
        RunList: {
            /** @description newest first */
            runs: components["schemas"]["RunSummary"][];
            /** @description pass as `page` for the next runs; absent on the last page */
            next_page?: string;
        };
        RunSummary: {
            /**
             * @description the run (its Temporal workflow id, as the `Run-Id` header names it)
             * @example tenant-create/acme
             */
            id: string;
            /** @description the Temporal run id of this execution (a workflow id is reused: create, delete, create again) */
            run_id: string;
            /** @enum {string} */
            operation: "tenant-create" | "tenant-delete" | "tenant-reconcile" | "tenant-plan" | "reconcile-sweep" | "broker-account-ensure" | "broker-account-delete" | "workload-create" | "workload-delete" | "record-put" | "record-delete" | "device-address-reserve" | "device-address-release" | "device-mac-move" | "wifi-key-issue" | "wifi-key-revoke" | "admission-wifi-key" | "isolation-check";
            /**
             * @description absent for the sweep
             * @example acme
             */
            tenant?: string;
            /** @description the object the run works on, as its path below `/v1/` (`tenants/acme/workloads/web`) */
            object?: string;
            /**
             * @description `parked`: running, after a failed step, waiting for its call to be repeated (which resumes it); the others are Temporal's execution statuses
             * @enum {string}
             */
            status: "running" | "parked" | "completed" | "failed" | "terminated" | "timed-out" | "canceled" | "continued-as-new";
            /** @description how the run last answered: `created`, `deleted`, `refused` (a 409 or 404), `failed` (a 502), ... */
            outcome?: string;
            /** @description the step the run is at, parked after, or `done` */
            step?: string;
            /** @description every step that failed in the run, kept after a resume */
            failed_steps: string[];
            failure?: components["schemas"]["RunFailure"] & unknown;
            /** Format: date-time */
            started_at: string;
            /** Format: date-time */
            closed_at?: string;
        };
        EventList: {
            /** @description oldest first */
            events: components["schemas"]["Event"][];
        };
        Event: {
            /** @description its place in the feed: pass the last one seen as `after` */
            seq: number;
            /** @description the `webhook-id` it is delivered under, the same on every attempt */
            id: string;
            /**
             * @description `drift.found`: a sweep found objects of a tenant not in place (corrected, needs-restore, unknown); `run.parked`: a run failed a step and waits for its call to be repeated; `run.given-up`: a parked run ended unrepeated past its bound
             * @enum {string}
             */
            type: "drift.found" | "run.parked" | "run.given-up";
            /** Format: date-time */
            created_at: string;
            /** @description what the webhook body carries as `data` (the tenant, the run, the objects, the failure) */
            data: {
                [key: string]: unknown;
            };
            /** @description the webhook's deliveries (none at a site without one) */
            delivery: {
                attempts: number;
                /** Format: date-time */
                delivered_at?: string;
                /**
                 * Format: date-time
                 * @description the webhook never answered 2xx within the retries
                 */
                given_up_at?: string;
                last_error?: string;
            };
        };
        SweepList: {
            /** @description newest first */
            sweeps: components["schemas"]["Sweep"][];
        };
        Sweep: {
            /** @description the sweep run (its workflow id) */
            run: string;
            run_id: string;
            /** Format: date-time */
            started_at: string;
            /** Format: date-time */
            closed_at: string;
            /** @enum {string} */
            mode: "correct" | "plan";
            tenants: number;
            reconciled: string[];
            planned?: string[];
            failed: string[];
            skipped: {
                name: string;
                reason: string;
            }[];
            /** @description per tenant, the objects not in place (`area: object result`) */
            corrected: {
                [key: string]: string[];
            };
            /** @description per tenant, per step or area, how many objects came to each result */
            found: {
                [key: string]: {
                    [key: string]: {
                        [key: string]: number;
                    };
                };
            };
        };
        ReconciledTenant: components["schemas"]["Tenant"] & {
            /** @description `true` for `?plan=true`: nothing was changed on any backend or in the registry; each result says what a reconcile would do (`created`: would create, `corrected`: would correct these fields, `unknown`: would be removed only with `prune=true`, `in-flight` and `unfinished`: would leave alone), and the answer carries no secret. A tenant whose own create or delete is in flight or parked is planned too (a reconcile of it answers 409 naming the run): every object is then `in-flight` with that run */
            plan?: boolean;
            /** @description for `plan=true`: the saved plan, to apply with `?apply=<plan_id>` until `plan_expires_at` */
            plan_id?: string;
            /** Format: date-time */
            plan_expires_at?: string;
            /** @description for `plan=true`: whether applying the plan removes the objects it lists `unknown` */
            prune?: boolean;
            /** @description for `apply`: the plan carried out */
            applied_plan?: string;
            objects: components["schemas"]["ReconciledObject"][];
        };
        IsolationCheck: {
            /** @description every probe `isolated` or `works` */
            passed: boolean;
            /** Format: date-time */
            started_at: string;
            /** Format: date-time */
            finished_at: string;
            /** @description the Temporal run of the check (workflow id `isolation-check`) */
            run_id: string;
            /** @description each crossing in words: backend, credential kind and what it reached */
            crossings: string[];
            probes: components["schemas"]["IsolationProbe"][];
            /** @description backends this site does not run, or the check does not probe yet */
            skipped: ("api" | "dns" | "state" | "broker" | "log-store" | "dashboards" | "wifi" | "certificates")[];
        };
        IsolationProbe: {
            /** @enum {string} */
            backend: "api" | "dns" | "state" | "broker" | "log-store" | "dashboards" | "wifi" | "certificates";
            /** @description the kind of credential presented (`TSIG key`, `state-store key`, `broker account`, `Wi-Fi key`, `certificate`), never the credential */
            credential: string;
            /** @enum {string} */
            credential_of: "canarya" | "canaryb";
            /** @enum {string} */
            object_of: "canarya" | "canaryb";
            /**
             * @description `isolated`: the other canary's objects refused the credential; `works`: the canary's own objects took it; `crossed`: the credential reached the other canary's objects (a tenant's credential reaches another tenant's); `broken`: its own objects refused it, or the backend did not answer, so this backend's isolation is unknown
             * @enum {string}
             */
            result: "isolated" | "works" | "crossed" | "broken";
            /** @description what each attempt reached or was refused, or the failure (no host, no secret) */
            detail: string;
        };
        Workload: {
            /** @example acme */
            tenant: string;
            /** @example web */
            name: string;
            fqdn: string;
            /** @enum {string} */
            status: "provisioning" | "ready" | "deleting";
            ordinal: number;
            vmid: number;
            cores: number;
            memory_mb: number;
            disk_gb: number;
            mac: string;
            address: string;
            /** @description the account that received the keys */
            login_user: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            condition?: components["schemas"]["Condition"];
        };
        WorkloadCreateFailure: {
            error: string;
            workload?: components["schemas"]["Workload"] & unknown;
            failure?: components["schemas"]["RunFailure"] & unknown;
        };
        WorkloadRequest: {
            /** @example web */
            name: string;
            /** @default 2 */
            cores?: number;
            /** @default 2048 */
            memory_mb?: number;
            /** @description grows the template's disk; never shrinks it */
            disk_gb?: number;
            /** @description public keys for the site's tenant account; written at first boot only */
            ssh_keys?: string[];
        };
        WorkloadList: {
            workloads: components["schemas"]["Workload"][];
        };
        RecordList: {
            records: components["schemas"]["Record"][];
        };
        Record: {
            /** @example acme */
            tenant: string;
            /** @example www */
            name: string;
            fqdn: string;
            address: string;
            /**
             * @description `subnet`: published with its PTR; `device`: a device's reserved address, a second name with no PTR
             * @enum {string}
             */
            kind: "subnet" | "device";
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            condition?: components["schemas"]["Condition"];
        };
        RecordPutRequest: {
            /**
             * Format: ipv4
             * @description an IPv4 address of the tenant's subnet, or one it reserved for a device
             */
            address: string;
        };
        BrokerAccount: {
            name: string;
            /** @description `<tenant>-<name>` */
            username: string;
            device?: string;
            /** @description absolute patterns (`<tenant>/...`), as the broker enforces them */
            publish: string[];
            /** @description absolute patterns (`<tenant>/...`), as the broker enforces them */
            subscribe: string[];
            /** @description only in the answer of a call that minted or was given one */
            password?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            condition?: components["schemas"]["Condition"];
        };
        /** @description the broker step failed; the account as asked, with the password this call minted or was given */
        BrokerAccountFailure: {
            error: string;
            broker_account: components["schemas"]["BrokerAccount"];
            failure?: components["schemas"]["RunFailure"] & unknown;
        };
        BrokerAccountRequest: {
            /**
             * @description the username is `<tenant>-<name>`
             * @example sensor-gw
             */
            name: string;
            /** @description makes this a device account: it may publish `log/<device>` and may not subscribe under `log/` */
            device?: string;
            /** @description topic patterns relative to the tenant; may be empty when subscribe is not */
            publish: string[];
            /** @description topic patterns relative to the tenant; may be empty when publish is not */
            subscribe: string[];
            /** @description restore only: the password the tenant holds, after the broker lost it */
            password?: string;
        };
        BrokerAccountList: {
            broker_accounts: components["schemas"]["BrokerAccount"][];
        };
        Certificate: {
            name: string;
            /** @description `<certificate>.<tenant>.<site domain>`, the common name */
            fqdn: string;
            /** @description the further labels, as asked */
            names: string[];
            /** @description every DNS name in the certificate, fqdn first */
            dns_names: string[];
            /** @description PEM */
            certificate: string;
            /** @description PEM: what a server presents after its certificate (the issuing CA and any intermediates) */
            chain: string;
            /** Format: date-time */
            not_before: string;
            /** Format: date-time */
            not_after: string;
            /** @description uppercase hex */
            serial: string;
            /**
             * Format: date-time
             * @description when this certificate was issued
             */
            created_at: string;
        };
        CertificateRequest: {
            /** @description PEM PKCS#10 request, self-signed by an RSA (2048 bits or more) or ECDSA P-256 key; only its key is used */
            csr: string;
            /** @description further labels in the tenant zone (never names: the zone is appended) */
            names?: string[];
        };
        CertificateList: {
            certificates: components["schemas"]["Certificate"][];
        };
        Device: {
            /** @example sensor-1 */
            name: string;
            trust_class: string;
            /** @description lowercase colon-separated */
            mac?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        DeviceFailure: {
            error: string;
            device?: components["schemas"]["Device"] & unknown;
            failure?: components["schemas"]["RunFailure"] & unknown;
        };
        DeviceRequest: {
            /** @example sensor-1 */
            name: string;
            /**
             * @description a class the site serves
             * @example sensor
             */
            trust_class: string;
            /**
             * @description absent or null: the device has none (refused while it holds a fixed address)
             * @example aa:bb:cc:dd:ee:ff
             */
            mac?: string | null;
        };
        DeviceList: {
            devices: components["schemas"]["Device"][];
        };
        DeviceAddress: {
            device: string;
            address: string;
            /** @description the MAC the DHCP server reserves the address for */
            mac: string;
            trust_class: string;
            /** @description `<device>.<tenant zone>`, published with no PTR */
            fqdn: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            condition?: components["schemas"]["Condition"];
        };
        DeviceAddressFailure: {
            error: string;
            address?: components["schemas"]["DeviceAddress"] & unknown;
            failure?: components["schemas"]["RunFailure"] & unknown;
        };
        DeviceAddressRequest: {
            /**
             * Format: ipv4
             * @description an address in the range of the device's trust class; absent: the lowest free one
             */
            address?: string;
        };
        WifiKey: {
            name: string;
            /** @description the site trust class; `developer` for the key an admission issued */
            trust_class: string;
            ssid: string;
            /** @description the one client the key is bound to */
            mac?: string;
            /** @description false: the stored psk is unreadable; issue the key again with the tenant's psk */
            secrets_stored: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description create answers only */
            psk?: string;
            condition?: components["schemas"]["Condition"];
        };
        WifiKeyFailure: {
            error: string;
            wifi_key?: components["schemas"]["WifiKey"] & unknown;
            failure?: components["schemas"]["RunFailure"] & unknown;
        };
        WifiKeyRequest: {
            /** @example sensors */
            name: string;
            /**
             * @description a class the site serves
             * @example sensor
             */
            trust_class: string;
            /** @description restore only: the key the tenant holds, after the service lost its copy */
            psk?: string;
        };
        WifiKeyList: {
            wifi_keys: components["schemas"]["WifiKey"][];
        };
        Egress: {
            vrfs: {
                tenant: string;
                vrf: string;
            }[];
        };
        CodecPayloads: {
            /** @default [] */
            payloads?: {
                metadata?: {
                    [key: string]: string;
                };
                data?: string;
            }[];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
