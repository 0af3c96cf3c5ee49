-- route() as a view: topic mode, one row per (message, matching subscription); a message no
-- subscription takes appears once with subscription NULL and its outcome ('dropped' under the jms
-- rules; docs/guide/routing.md, "Routing rules per broker"). The invalid subscription is reported by
-- register_route and left out.
-- setup: register_route(spark, "routed", "messages", "subscriptions", mode="topic")
SELECT coalesce(subscription, '(' || outcome || ')') AS subscription,
       count(*) AS messages,
       array_join(array_sort(collect_list(JMSMessageID)), ', ') AS ids
FROM routed
GROUP BY 1
ORDER BY subscription;
-- result:
-- subscription | messages | ids
-- (dropped) | 2 | ID:4, ID:6
-- blue-heavy | 1 | ID:1
-- irish | 2 | ID:2, ID:3
-- urgent | 2 | ID:3, ID:5
