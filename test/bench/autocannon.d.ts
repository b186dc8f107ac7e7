// The part of autocannon's API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string | string[];
      connections?: number;
      duration?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    }
    interface Result {
      requests: { average: number; total: number };
      latency: { p99: number };
      non2xx: number;
      errors: number;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export default autocannon;
}
