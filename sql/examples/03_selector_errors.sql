-- jms_selector_error: NULL for a valid selector, else the error with its position (the full
-- text also has the selector and a caret on the next lines; split_part keeps the first line).
-- setup: register(spark)
SELECT name, split_part(jms_selector_error(selector), char(10), 1) AS error
FROM subscriptions
WHERE jms_selector_error(selector) IS NOT NULL
ORDER BY name;
-- result:
-- name | error
-- broken | SelectorSyntaxError: unexpected 'AND' at line 1, column 20
