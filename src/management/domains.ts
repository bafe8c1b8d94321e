import type { BulkOptions, CreateManyReport, RecordSet, SyncOptions, SyncPlan } from '../bulk/index.js';
import { deferredPage, type PagePromise } from '../core/pages/index.js';
import type { HttpClient, RequestOptions } from '../core/transport/index.js';
import { type APIPromise, aboutId, deferred, type Id, path } from '../core/transport/index.js';
import { bulkJobs, recordSet } from './bulk.js';
import { listPages } from './list.js';
import {
  checkParams,
  type DomainCreateParams,
  DomainCreateParamsSchema,
  type DomainListParams,
  DomainListParamsSchema,
  type DomainUpdateParams,
  DomainUpdateParamsSchema,
} from './params.js';
import { DeleteReceiptResponse, DomainPage, DomainResponse } from './responses.js';
import type { DeleteReceipt, Domain } from './schemas.js';

/** Custom domains: `/api/v1/domains`. Reach it as `client.domains`. */
export class Domains {
  readonly #http: HttpClient;
  readonly #set: RecordSet<Domain, DomainCreateParams>;

  /** Used by `ManagementClient`; not meant to be built directly. */
  constructor(http: HttpClient) {
    this.#http = http;
    this.#set = recordSet('domains', this, DomainCreateParamsSchema, ['index_page', 'not_found_page']);
  }

  /**
   * A page of domains, searched and sorted; await it for a `Page`, or `for await` over every domain.
   * @throws {InvalidParamsError} a value the spec does not allow (e.g. `per_page: 30`), before any request.
   */
  list(params: DomainListParams = {}, options?: RequestOptions): PagePromise<Domain> {
    return deferredPage(() =>
      listPages(
        this.#http,
        'domains',
        DomainPage,
        checkParams(DomainListParamsSchema, params, 'domains.list'),
        options,
      ),
    );
  }

  /**
   * One domain. @throws {NotFoundError} no domain of yours has this id.
   * @throws {ResponseValidationError} the answer is about another domain (a cache or proxy serving another one).
   */
  get(id: Id, options?: RequestOptions): APIPromise<Domain> {
    return deferred(() =>
      this.#http.request('GET', path`domains/${id}`, DomainResponse, {
        op: 'domains.get',
        options,
        accept: aboutId(id, 'domain'),
      }),
    );
  }

  /**
   * Creates a domain. @throws {InvalidParamsError} a missing or empty `name`, before any request.
   * @throws {UnprocessableEntityError} the server refused it (a taken name, a plan quota): see `fieldErrors`.
   * @throws {InternalServerError} with `mayHaveSucceeded: true` on a 502 or 504: check before creating it again.
   */
  create(params: DomainCreateParams, options?: RequestOptions): APIPromise<Domain> {
    return deferred(() =>
      this.#http.request('POST', 'domains', DomainResponse, {
        op: 'domains.create',
        body: checkParams(DomainCreateParamsSchema, params, 'domains.create'),
        options,
      }),
    );
  }

  /**
   * Changes a domain's pages (PUT; only the fields given are sent, `null` clears one; the name cannot change).
   * @throws {ResponseValidationError} the answer is about another domain.
   */
  update(id: Id, params: DomainUpdateParams, options?: RequestOptions): APIPromise<Domain> {
    return deferred(() =>
      this.#http.request('PUT', path`domains/${id}`, DomainResponse, {
        op: 'domains.update',
        options,
        body: checkParams(DomainUpdateParamsSchema, params, 'domains.update'),
        accept: aboutId(id, 'domain'),
      }),
    );
  }

  /**
   * Deletes a domain; resolves to the receipt `{ id, object: 'domain', deleted: true }`.
   * @throws {ResponseValidationError} the receipt is about another domain.
   */
  delete(id: Id, options?: RequestOptions): APIPromise<DeleteReceipt> {
    // A retry that finds it gone after an attempt that got no answer: that attempt deleted it.
    return deferred(() =>
      this.#http.request('DELETE', path`domains/${id}`, DeleteReceiptResponse, {
        op: 'domains.delete',
        options,
        gone: () => ({ id: Number(id), object: 'domain', deleted: true }),
        accept: aboutId(id, 'domain'),
      }),
    );
  }

  /**
   * Creates every row, none twice: one report entry per row, in order — `created`, `existed` (its name was there: an
   * earlier try whose answer was lost, or a run before), `failed` or `skipped` (aborted first). Rows are checked
   * before any request; a create that may have reached the server is followed by a look-up of its name before it is
   * sent again; transient failures are tried again (`attempts`). Run it again with the same rows to finish an
   * aborted or partly failed job.
   * @example
   * const report = await mgmt.domains.createMany(rows, { onProgress: (p) => console.log(`${p.done}/${p.total}`) });
   */
  createMany(
    rows: readonly DomainCreateParams[],
    options?: BulkOptions,
  ): Promise<CreateManyReport<Domain, DomainCreateParams>> {
    return bulkJobs().then((jobs) => jobs.createMany(this.#set, rows, options));
  }

  /**
   * The plan that makes your domains match `desired`, keyed by name, from one listing: `creates`, `updates` (the fields
   * that differ; a field left out of a row is left as it is), and `deletes` only with `prune: true`. Print it
   * (`plan.toString()`), then `plan.apply()`: a record changed since the plan was made is refused, not overwritten.
   * @throws {InvalidParamsError} a row `create` would refuse, or two rows with one name, before any request.
   */
  sync(
    desired: readonly DomainCreateParams[],
    options?: SyncOptions<Domain>,
  ): Promise<SyncPlan<Domain, DomainCreateParams>> {
    return bulkJobs().then((jobs) => jobs.sync(this.#set, desired, options));
  }
}
