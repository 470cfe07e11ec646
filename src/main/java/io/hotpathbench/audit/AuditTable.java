package io.hotpathbench.audit;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import javax.sql.DataSource;

/**
 * The audit table and the statements that write it. One row per request, keyed by the request's
 * id (a primary key, so a row written twice fails rather than hiding a lost one in a count).
 */
public final class AuditTable {

    /** The table's name. */
    public static final String NAME = "audit_log";
    /** Its columns, in the order the insert statements bind them. */
    static final String COLUMNS = "request_id, app_id, template_id, phone, verdict, keyword, content, logged_at";
    static final int COLUMN_COUNT = 8;
    private static final String ROW = "(?, ?, ?, ?, ?, ?, ?, ?)";

    private AuditTable() {
    }

    /** Drops and creates the table, empty. */
    public static void create(DataSource pool) throws SQLException {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + NAME);
            s.execute("CREATE TABLE " + NAME + " ("
                    + "request_id bigint PRIMARY KEY, "
                    + "app_id text NOT NULL, "
                    + "template_id text NOT NULL, "
                    + "phone text NOT NULL, "
                    + "verdict text NOT NULL, "
                    + "keyword text, "
                    + "content text NOT NULL, "
                    + "logged_at timestamptz NOT NULL)");
        }
    }

    /** Empties the table. */
    public static void truncate(DataSource pool) throws SQLException {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
            s.execute("TRUNCATE " + NAME);
        }
    }

    /** The rows the table holds, as a new transaction sees them. */
    public static long count(DataSource pool) throws SQLException {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT count(*) FROM " + NAME)) {
            r.next();
            return r.getLong(1);
        }
    }

    /** An insert of {@code rows} rows in one statement ({@code VALUES (...), (...), ...}). */
    static String insert(int rows) {
        StringBuilder sql = new StringBuilder("INSERT INTO " + NAME + " (" + COLUMNS + ") VALUES ").append(ROW);
        for (int i = 1; i < rows; i++) {
            sql.append(", ").append(ROW);
        }
        return sql.toString();
    }

    /** Binds {@code row} to the parameters after {@code offset} (the row's first column is parameter offset + 1). */
    static void bind(PreparedStatement statement, int offset, AuditRow row) throws SQLException {
        statement.setLong(offset + 1, row.requestId());
        statement.setString(offset + 2, row.appId());
        statement.setString(offset + 3, row.templateId());
        statement.setString(offset + 4, row.phone());
        statement.setString(offset + 5, row.verdict());
        if (row.keyword() == null) {
            statement.setNull(offset + 6, Types.VARCHAR);
        } else {
            statement.setString(offset + 6, row.keyword());
        }
        statement.setString(offset + 7, row.content());
        statement.setTimestamp(offset + 8, new Timestamp(row.loggedAtMillis()));
    }
}
