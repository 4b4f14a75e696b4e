package io.kaas.dev.apiserver;

/**
 * A column of {@code kubectl get}'s table, as a CRD's {@code additionalPrinterColumns} declares it.
 *
 * @param type     OpenAPI type of the cell: string, integer, number, boolean or date (shown as an age)
 * @param priority 0 for the default view, above 0 for {@code -o wide} only
 */
record PrinterColumn(String name, String type, String format, String description, int priority, ColumnPath path) {

    static PrinterColumn of(String name, String type, String jsonPath) {
        return new PrinterColumn(name, type, "", "", 0, ColumnPath.parse(jsonPath));
    }

    /** The column every CRD without printer columns gets, and every built-in type here ends with. */
    static PrinterColumn age() {
        return new PrinterColumn("Age", "date", "", "CreationTimestamp is a timestamp representing the server time when "
                + "this object was created.", 0, ColumnPath.parse(".metadata.creationTimestamp"));
    }
}
