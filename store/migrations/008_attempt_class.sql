-- A classroom answer also joins the student's history (source 'classroom');
-- it keeps the quiz's title as it was, so /me can say "Classroom: <quiz
-- title>, <date>" even after the quiz is edited or its host is deleted.
ALTER TABLE attempts ADD COLUMN class_title TEXT NOT NULL DEFAULT '';
