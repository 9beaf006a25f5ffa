/**
 * The positional parameters of one statement, built as its text is: each value added answers
 * the placeholder it returns (`$1`, `$2`, … `$10` …), so fragments compose without renumbering.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  /** Adds a value; returns its placeholder, with `cast` (e.g. `::jsonb`) appended. */
  add(value: unknown, cast = ''): string {
    this.values.push(value);
    return `$${this.values.length}${cast}`;
  }

  /** Adds each value in order; returns their placeholders joined by commas. */
  list(values: unknown[]): string {
    return values.map((v) => this.add(v)).join(', ');
  }
}
