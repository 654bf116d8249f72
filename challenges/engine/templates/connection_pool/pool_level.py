"""Snippets of the ``utility`` level: the transaction helper borrows through the
pool's own ``connection()`` helper, and that helper gives the connection back
only when the block succeeds.

Each entry is ``(python, javascript)``.
"""

POOL_CONNECTION = {
    "gold": ("""conn = self.checkout()
try:
    yield conn
finally:
    self.checkin(conn)""", """const conn = await this.checkout();
try {
  return await work(conn);
} finally {
  await this.checkin(conn);
}"""),
    "faulty": ("""conn = self.checkout()
yield conn
self.checkin(conn)""", """const conn = await this.checkout();
const result = await work(conn);
await this.checkin(conn);
return result;"""),
    "alt_both_paths": ("""conn = self.checkout()
try:
    yield conn
except BaseException:
    self.checkin(conn)
    raise
self.checkin(conn)""", """const conn = await this.checkout();
let result;
try {
  result = await work(conn);
} catch (err) {
  await this.checkin(conn);
  throw err;
}
await this.checkin(conn);
return result;"""),
    "alt_else": ("""conn = self.checkout()
try:
    yield conn
except BaseException:
    self.checkin(conn)
    raise
else:
    self.checkin(conn)""", """const conn = await this.checkout();
return work(conn).finally(() => this.checkin(conn));"""),
}

# The transaction helper of the utility level (correct code: it relies on the pool).
TXN_VIA_POOL = ("""with pool.connection() as conn:
    try:
        conn.begin()
        yield conn
        conn.commit()
    except BaseException:
        _rollback_quietly(conn)
        raise""", """return pool.connection(async (conn) => {
  try {
    await conn.begin();
    const result = await work(conn);
    await conn.commit();
    return result;
  } catch (err) {
    await rollbackQuietly(conn, logger);
    throw err;
  }
});""")
