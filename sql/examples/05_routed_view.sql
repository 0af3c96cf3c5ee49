-- route() as a view: topic mode, one row per (message, matching subscription); a message no
-- subscription takes is a dead letter (subscription NULL) because some subscription is durable.
-- The invalid subscription is reported by register_route and left out.
-- setup: register_route(spark, "routed", "messages", "subscriptions", mode="topic")
SELECT coalesce(subscription, '(dead letter)') AS subscription,
       count(*) AS messages,
       array_join(array_sort(collect_list(JMSMessageID)), ', ') AS ids
FROM routed
GROUP BY subscription
ORDER BY subscription;
-- result:
-- subscription | messages | ids
-- (dead letter) | 2 | ID:4, ID:6
-- blue-heavy | 1 | ID:1
-- irish | 2 | ID:2, ID:3
-- urgent | 2 | ID:3, ID:5
