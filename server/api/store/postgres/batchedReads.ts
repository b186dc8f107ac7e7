// Reads made outside a transaction in one turn of the event loop, sent in one message
// (Statements.allBatched): each an EXECUTE of its statement prepared once per connection, where each
// read of its own was a round trip and a socket write of the server's.
import type pg from 'pg';
import { isDatabaseUnavailable } from '../../faults.ts';
import type { Param, Row } from '../db.ts';
import { postgresExecute, postgresLiterals, postgresStatement } from './dialect.ts';
import type { NamedStatements } from './namedStatements.ts';

/** A read waiting to go with the others of its turn of the event loop. */
interface BatchedRead {
  sql: string;
  params: Param[];
  resolve: (rows: Row[]) => void;
  reject: (error: unknown) => void;
}

export type Query = (sql: string, params: Param[]) => Promise<pg.QueryResult<Row>>;

export class BatchedReads {
  private readonly waiting: BatchedRead[] = [];
  private readonly pool: pg.Pool;
  private readonly names: NamedStatements;
  /** How a read is made on its own (the one of its turn, or each of a batch that failed). */
  private readonly query: Query;

  constructor(pool: pg.Pool, names: NamedStatements, query: Query) {
    this.pool = pool;
    this.names = names;
    this.query = query;
  }

  /** The rows of a read whose statement has a name (NamedStatements.executeNameOf), sent with the others of this turn. */
  read(sql: string, params: Param[]): Promise<Row[]> {
    return new Promise<Row[]>((resolve, reject) => {
      this.waiting.push({ sql, params, resolve, reject });
      if (this.waiting.length === 1) setImmediate(() => void this.send());
    });
  }

  /**
   * Sends the batched reads of a turn of the event loop in one message: EXECUTE of each, its
   * statement prepared once per connection. If the message fails, each read is made on its own,
   * so only one at fault fails.
   */
  private async send(): Promise<void> {
    const reads = this.waiting.splice(0);
    const alone = (read: BatchedRead): void => {
      this.query(read.sql, read.params).then((result) => read.resolve(result.rows), read.reject);
    };
    if (reads.length === 1) return alone(reads[0]);
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      for (const read of reads) read.reject(error);
      return;
    }
    let results: Array<pg.QueryResult<Row>>;
    let broken: unknown;
    const prepared = this.names.preparedOnConnection(client);
    const names = reads.map((read) => this.names.executeNameOf(read.sql)!);
    try {
      const statements: string[] = [];
      for (const [i, read] of reads.entries()) {
        const name = names[i];
        if (!prepared.has(name)) {
          // On its own, outside any transaction, so that it stays prepared whatever the batch does.
          await client.query(`PREPARE ${name} AS ${postgresStatement(read.sql)}`);
          prepared.add(name);
        }
        statements.push(postgresExecute(name, postgresLiterals(read.params)));
      }
      results = (await client.query(statements.join(';\n'))) as unknown as Array<pg.QueryResult<Row>>;
    } catch (error) {
      // A statement may have gone stale (a migration changed its table): prepared again next time.
      for (const name of new Set(names)) {
        if (!prepared.delete(name)) continue;
        await client.query(`DEALLOCATE ${name}`).catch((deallocateError: unknown) => {
          broken = deallocateError;
        });
      }
      if (isDatabaseUnavailable(error)) broken = error;
      for (const read of reads) alone(read);
      return;
    } finally {
      // A connection that failed is dropped rather than handed to the next request.
      client.release(broken instanceof Error ? broken : undefined);
    }
    for (const [i, read] of reads.entries()) read.resolve(results[i].rows);
  }
}
