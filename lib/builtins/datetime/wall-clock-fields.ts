/** The local calendar date and wall-clock time of an instant in one time zone. */
export interface WallClockFields {
  year: number;
  /** 1–12. */
  month: number;
  /** 1–31. */
  day: number;
  /** 0–23. */
  hour: number;
  minute: number;
  second: number;
  /** 0 (Sunday) – 6 (Saturday). */
  weekday: number;
}

/** Reads the wall-clock fields of an instant (milliseconds since the epoch, whole seconds). */
export type WallClockReader = (epochMilliseconds: number) => WallClockFields;
