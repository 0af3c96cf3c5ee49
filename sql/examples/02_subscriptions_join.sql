-- One selector per row: the subscriptions table joined to the messages. The invalid selector
-- ('broken') does not fail the query; it matches nothing (03_selector_errors.sql says why).
-- setup: register(spark)
SELECT s.name, m.JMSMessageID
FROM subscriptions s
JOIN messages m
  ON jms_match(s.selector, struct(m.JMSType, m.JMSPriority, m.color, m.weight, m.customer, m.urgent))
ORDER BY s.name, m.JMSMessageID;
-- result:
-- name | JMSMessageID
-- blue-heavy | ID:1
-- irish | ID:2
-- irish | ID:3
-- urgent | ID:3
-- urgent | ID:5
