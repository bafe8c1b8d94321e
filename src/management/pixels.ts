import type { BulkOptions, CreateManyReport, RecordSet, SyncOptions, SyncPlan } from '../bulk/index.js';
import { deferredPage, type PagePromise } from '../core/pages/index.js';
import type { HttpClient, RequestOptions } from '../core/transport/index.js';
import { type APIPromise, aboutId, deferred, type Id, path } from '../core/transport/index.js';
import { bulkJobs, recordSet } from './bulk.js';
import { listPages } from './list.js';
import {
  checkParams,
  type PixelCreateParams,
  PixelCreateParamsSchema,
  type PixelListParams,
  PixelListParamsSchema,
  type PixelUpdateParams,
  PixelUpdateParamsSchema,
} from './params.js';
import { DeleteReceiptResponse, PixelPage, PixelResponse } from './responses.js';
import type { DeleteReceipt, Pixel } from './schemas.js';

/** Tracking pixels: `/api/v1/pixels`. Reach it as `client.pixels`. */
export class Pixels {
  readonly #http: HttpClient;
  readonly #set: RecordSet<Pixel, PixelCreateParams>;

  /** Used by `ManagementClient`; not meant to be built directly. */
  constructor(http: HttpClient) {
    this.#http = http;
    this.#set = recordSet('pixels', this, PixelCreateParamsSchema, ['type', 'value']);
  }

  /**
   * A page of pixels, filtered and sorted; await it for a `Page`, or `for await` over every pixel.
   * @throws {InvalidParamsError} a value the spec does not allow (e.g. `per_page: 30`), before any request.
   */
  list(params: PixelListParams = {}, options?: RequestOptions): PagePromise<Pixel> {
    return deferredPage(() =>
      listPages(
        this.#http,
        'pixels',
        PixelPage,
        checkParams(PixelListParamsSchema, params, 'pixels.list'),
        options,
      ),
    );
  }

  /**
   * One pixel. @throws {NotFoundError} no pixel of yours has this id.
   * @throws {ResponseValidationError} the answer is about another pixel (a cache or proxy serving another one).
   */
  get(id: Id, options?: RequestOptions): APIPromise<Pixel> {
    return deferred(() =>
      this.#http.request('GET', path`pixels/${id}`, PixelResponse, {
        op: 'pixels.get',
        options,
        accept: aboutId(id, 'pixel'),
      }),
    );
  }

  /**
   * Creates a pixel. @throws {InvalidParamsError} a missing field or unknown type, before any request.
   * @throws {UnprocessableEntityError} the server refused it (a taken name, a plan quota): see `fieldErrors`.
   * @throws {InternalServerError} with `mayHaveSucceeded: true` on a 502 or 504: check before creating it again.
   */
  create(params: PixelCreateParams, options?: RequestOptions): APIPromise<Pixel> {
    return deferred(() =>
      this.#http.request('POST', 'pixels', PixelResponse, {
        op: 'pixels.create',
        body: checkParams(PixelCreateParamsSchema, params, 'pixels.create'),
        options,
      }),
    );
  }

  /**
   * Changes the given fields of a pixel (PUT; fields left out are not sent and stay as they are).
   * @throws {ResponseValidationError} the answer is about another pixel.
   */
  update(id: Id, params: PixelUpdateParams, options?: RequestOptions): APIPromise<Pixel> {
    return deferred(() =>
      this.#http.request('PUT', path`pixels/${id}`, PixelResponse, {
        op: 'pixels.update',
        options,
        body: checkParams(PixelUpdateParamsSchema, params, 'pixels.update'),
        accept: aboutId(id, 'pixel'),
      }),
    );
  }

  /**
   * Deletes a pixel; resolves to the receipt `{ id, object: 'pixel', deleted: true }`.
   * @throws {ResponseValidationError} the receipt is about another pixel.
   */
  delete(id: Id, options?: RequestOptions): APIPromise<DeleteReceipt> {
    // A retry that finds it gone after an attempt that got no answer: that attempt deleted it.
    return deferred(() =>
      this.#http.request('DELETE', path`pixels/${id}`, DeleteReceiptResponse, {
        op: 'pixels.delete',
        options,
        gone: () => ({ id: Number(id), object: 'pixel', deleted: true }),
        accept: aboutId(id, 'pixel'),
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
   * const report = await mgmt.pixels.createMany(rows, { onProgress: (p) => console.log(`${p.done}/${p.total}`) });
   */
  createMany(
    rows: readonly PixelCreateParams[],
    options?: BulkOptions,
  ): Promise<CreateManyReport<Pixel, PixelCreateParams>> {
    return bulkJobs().then((jobs) => jobs.createMany(this.#set, rows, options));
  }

  /**
   * The plan that makes your pixels match `desired`, keyed by name, from one listing: `creates`, `updates` (the fields
   * that differ; a field left out of a row is left as it is), and `deletes` only with `prune: true`. Print it
   * (`plan.toString()`), then `plan.apply()`: a record changed since the plan was made is refused, not overwritten.
   * @throws {InvalidParamsError} a row `create` would refuse, or two rows with one name, before any request.
   */
  sync(
    desired: readonly PixelCreateParams[],
    options?: SyncOptions<Pixel>,
  ): Promise<SyncPlan<Pixel, PixelCreateParams>> {
    return bulkJobs().then((jobs) => jobs.sync(this.#set, desired, options));
  }
}
